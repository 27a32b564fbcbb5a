! The OpenMP 2.5 Fortran lock bindings (omp_*_lock_ at OMP_1.0, called
! through locks25_omp_1_0.c): the 2.5 nest lock lives in the 8-byte
! omp_nest_lock_kind variable ({owner, count}: the count is the upper
! half; nothing allocated, the neighbouring variables untouched) and is
! owned by a thread: nesting depths, omp_test_nest_lock's answers (0 to
! another thread), another thread's set waiting for the holder, the same
! thread nesting it from two tasks, and a counter incremented by every
! thread under it (exact); the simple lock at OMP_1.0 is the OMP_3.0 one.
program locks25
  use omp_lib
  use, intrinsic :: iso_c_binding, only: c_int32_t
  implicit none
  interface
    subroutine f25_init_lock(l)
      import :: omp_lock_kind
      integer(omp_lock_kind) :: l
    end subroutine
    subroutine f25_destroy_lock(l)
      import :: omp_lock_kind
      integer(omp_lock_kind) :: l
    end subroutine
    subroutine f25_set_lock(l)
      import :: omp_lock_kind
      integer(omp_lock_kind) :: l
    end subroutine
    subroutine f25_unset_lock(l)
      import :: omp_lock_kind
      integer(omp_lock_kind) :: l
    end subroutine
    integer function f25_test_lock(l)
      import :: omp_lock_kind
      integer(omp_lock_kind) :: l
    end function
    subroutine f25_init_nest_lock(l)
      import :: omp_nest_lock_kind
      integer(omp_nest_lock_kind) :: l
    end subroutine
    subroutine f25_destroy_nest_lock(l)
      import :: omp_nest_lock_kind
      integer(omp_nest_lock_kind) :: l
    end subroutine
    subroutine f25_set_nest_lock(l)
      import :: omp_nest_lock_kind
      integer(omp_nest_lock_kind) :: l
    end subroutine
    subroutine f25_unset_nest_lock(l)
      import :: omp_nest_lock_kind
      integer(omp_nest_lock_kind) :: l
    end subroutine
    integer function f25_test_nest_lock(l)
      import :: omp_nest_lock_kind
      integer(omp_nest_lock_kind) :: l
    end function
  end interface
  integer :: failures = 0
  integer, parameter :: iters = 20000
  integer(omp_nest_lock_kind), parameter :: guard = &
    4242424242_omp_nest_lock_kind
  ! The lock is vars(2); vars(1) and vars(3) must keep the guard.
  integer(omp_nest_lock_kind) :: vars(3)
  integer(omp_lock_kind) :: lck
  integer :: n, i, refused, fresh, in_task, in_child, after_child
  integer :: released, seen_released
  double precision :: t0
  integer, volatile :: counter
  integer :: inside, overlaps

  n = max(env_threads(), 2)
  vars = guard
  call f25_init_nest_lock(vars(2))
  call check(half(vars(2), 1) == 0 .and. half(vars(2), 2) == 0, &
             'after init: owner and count 0')
  do i = 1, 3
    call f25_set_nest_lock(vars(2))
    call check(half(vars(2), 2) == i, 'count after omp_set_nest_lock')
  end do
  call check(half(vars(2), 1) /= 0, 'a held lock has an owner')
  call check(f25_test_nest_lock(vars(2)) == 4, &
             'omp_test_nest_lock by the owner after 3 sets: 4')
  do i = 3, 0, -1
    call f25_unset_nest_lock(vars(2))
    call check(half(vars(2), 2) == i, 'count after omp_unset_nest_lock')
  end do
  call check(half(vars(2), 1) == 0 .and. half(vars(2), 2) == 0, &
             'after the last unset: free')

  ! Another thread is refused while the master holds it.
  refused = -1
  fresh = -1
  !$omp parallel num_threads(n) shared(refused, fresh)
  !$omp master
  call f25_set_nest_lock(vars(2))
  !$omp end master
  !$omp barrier
  if (omp_get_thread_num() == 1) refused = f25_test_nest_lock(vars(2))
  !$omp barrier
  !$omp master
  call f25_unset_nest_lock(vars(2))
  !$omp end master
  !$omp barrier
  if (omp_get_thread_num() == 1) then
    fresh = f25_test_nest_lock(vars(2))
    call f25_unset_nest_lock(vars(2))
  end if
  !$omp end parallel
  call check(refused == 0, 'omp_test_nest_lock by another thread: 0')
  call check(fresh == 1, 'omp_test_nest_lock on a free lock: 1')

  ! Another thread's omp_set_nest_lock returns only once the holder has
  ! released it (the holder waits 50 ms first).
  released = 0
  seen_released = -1
  !$omp parallel num_threads(n) shared(released, seen_released)
  !$omp master
  call f25_set_nest_lock(vars(2))
  !$omp end master
  !$omp barrier
  if (omp_get_thread_num() == 1) then
    call f25_set_nest_lock(vars(2))
    !$omp atomic read
    seen_released = released
    call f25_unset_nest_lock(vars(2))
  end if
  !$omp master
  t0 = omp_get_wtime()
  do while (omp_get_wtime() - t0 < 0.05d0)
  end do
  !$omp atomic write
  released = 1
  call f25_unset_nest_lock(vars(2))
  !$omp end master
  !$omp end parallel
  call check(seen_released == 1, &
             'omp_set_nest_lock by another thread waits for the holder')

  ! Owned by the thread: an undeferred child task on the holder's thread
  ! nests it (under task ownership it would get 0).
  in_task = -1
  in_child = -1
  after_child = -1
  !$omp parallel num_threads(n) shared(in_task, in_child, after_child)
  !$omp single
  !$omp task shared(in_task, in_child, after_child)
  call f25_set_nest_lock(vars(2))
  in_task = half(vars(2), 2)
  !$omp task if(.false.) shared(in_child)
  in_child = f25_test_nest_lock(vars(2))
  if (in_child > 0) call f25_unset_nest_lock(vars(2))
  !$omp end task
  after_child = half(vars(2), 2)
  call f25_unset_nest_lock(vars(2))
  !$omp end task
  !$omp taskwait
  !$omp end single
  !$omp end parallel
  call check(in_task == 1 .and. in_child == 2 .and. after_child == 1, &
             'a child task on the owner thread nests the lock')

  ! Mutual exclusion, two deep.
  counter = 0
  inside = 0
  overlaps = 0
  !$omp parallel num_threads(n) private(i) shared(counter, inside, overlaps)
  do i = 1, iters
    call f25_set_nest_lock(vars(2))
    if (mod(i, 2) == 0) then
      call f25_set_nest_lock(vars(2))
    else
      do while (f25_test_nest_lock(vars(2)) == 0)
      end do
    end if
    call exclusive_bump(counter, inside, overlaps)
    call f25_unset_nest_lock(vars(2))
    call f25_unset_nest_lock(vars(2))
  end do
  !$omp end parallel
  call check(counter == n * iters .and. overlaps == 0, &
             'counter under the 2.5 nest lock')
  call check(half(vars(2), 1) == 0 .and. half(vars(2), 2) == 0, &
             'after the contention: free')
  call f25_destroy_nest_lock(vars(2))
  call check(vars(1) == guard .and. vars(3) == guard, &
             'the variables around the nest lock untouched')

  ! The simple lock: one lock at both versions.
  call f25_init_lock(lck)
  call check(f25_test_lock(lck) == 1, 'omp_test_lock@OMP_1.0 on a free lock')
  call check(.not. omp_test_lock(lck), &
             'omp_test_lock@OMP_3.0 on a lock held through OMP_1.0')
  call f25_unset_lock(lck)
  call check(omp_test_lock(lck), 'omp_test_lock@OMP_3.0 once unset')
  call omp_unset_lock(lck)
  counter = 0
  !$omp parallel num_threads(n) private(i) shared(counter, inside, overlaps)
  do i = 1, iters
    call f25_set_lock(lck)
    call exclusive_bump(counter, inside, overlaps)
    call f25_unset_lock(lck)
  end do
  !$omp end parallel
  call check(counter == n * iters .and. overlaps == 0, &
             'counter under the OMP_1.0 simple lock')
  call f25_destroy_lock(lck)

  call finish('locks25')
contains
  include 'checks.inc'
  include 'exclusive.inc'

  ! Half k of the 2.5 nest lock's {owner, count} (x86-64: little-endian,
  ! owner first).
  integer function half(v, k)
    integer(omp_nest_lock_kind), intent(in) :: v
    integer, intent(in) :: k
    integer(c_int32_t) :: h(2)
    h = transfer(v, h)
    half = h(k)
  end function half
end program locks25
