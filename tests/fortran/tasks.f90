! Tasks in a gfortran program: a chain of depend(in/out) tasks over an
! array and a depend(inout) chain on one variable, whose order-sensitive
! results are checked against the serial loop; omp_in_final in final and
! non-final tasks; a detached task completed by omp_fulfill_event (the
! taskwait returns only once the event is fulfilled; a fulfil that does
! nothing hangs it, which the time limit turns into a failure); many small
! tasks.
program tasks
  use omp_lib
  implicit none
  integer :: failures = 0
  integer, parameter :: nchain = 2000, p = 1000003
  integer :: x(0:nchain), serial(0:nchain), acc, acc_serial, i, j
  integer :: done
  integer(omp_event_handle_kind) :: ev
  logical :: in_final_f, in_final_t

  ! The serial results.
  serial(0) = 1
  do i = 1, nchain
    serial(i) = mod(serial(i - 1) * 3 + i, p)
  end do
  acc_serial = 7
  do i = 1, nchain
    acc_serial = mod(acc_serial * 5 + i * i, p)
  end do

  x = 0
  x(0) = 1
  acc = 7
  !$omp parallel shared(x, acc)
  !$omp single
  do i = 1, nchain
    !$omp task depend(in: x(i - 1)) depend(out: x(i)) firstprivate(i) shared(x)
    x(i) = mod(x(i - 1) * 3 + i, p)
    !$omp end task
    !$omp task depend(inout: acc) firstprivate(i) shared(acc)
    acc = mod(acc * 5 + i * i, p)
    !$omp end task
  end do
  !$omp end single
  !$omp end parallel
  call check(all(x == serial), 'depend(in/out) chain = serial result')
  call check(acc == acc_serial, 'depend(inout) chain = serial result')

  ! omp_in_final.
  in_final_f = .true.
  in_final_t = .false.
  !$omp parallel shared(in_final_f, in_final_t)
  !$omp single
  call check(.not. omp_in_final(), 'omp_in_final in an implicit task')
  !$omp task shared(in_final_f)
  in_final_f = omp_in_final()
  !$omp end task
  !$omp task final(.true.) shared(in_final_t)
  in_final_t = omp_in_final()
  !$omp end task
  !$omp taskwait
  !$omp end single
  !$omp end parallel
  call check(.not. in_final_f, 'omp_in_final in a task that is not final')
  call check(in_final_t, 'omp_in_final in a final task')

  ! A detached task, fulfilled by its generating task before the taskwait.
  done = 0
  !$omp parallel shared(done, ev)
  !$omp single
  !$omp task detach(ev) shared(done)
  done = 1
  !$omp end task
  call omp_fulfill_event(ev)
  !$omp taskwait
  call check(done == 1, 'detached task: taskwait after omp_fulfill_event')
  !$omp end single
  !$omp end parallel

  ! Many small tasks, each writing its own element.
  !$omp parallel shared(x)
  !$omp single
  do j = 1, nchain
    !$omp task firstprivate(j) shared(x)
    x(j) = j * 2
    !$omp end task
  end do
  !$omp taskwait
  !$omp end single
  !$omp end parallel
  call check(sum(x(1:nchain)) == nchain * (nchain + 1), 'many small tasks')

  call finish('tasks')
contains
  include 'checks.inc'
end program tasks
