! Simple and nestable locks through the Fortran omp_lib (omp_*_lock_):
! a counter incremented by every thread many times under omp_set_lock, under
! an omp_test_lock spin, and under a nest lock taken three deep (exact
! totals, and no two threads inside at once); omp_test_lock and
! omp_test_nest_lock answers while another thread holds the lock (in a
! team of at least two, whatever OMP_NUM_THREADS); init and destroy of
! several locks at once.
program locks
  use omp_lib
  implicit none
  integer :: failures = 0
  integer, parameter :: iters = 50000
  integer(omp_lock_kind) :: lck, many(8)
  integer(omp_nest_lock_kind) :: nlck, nmany(8)
  integer :: n, i, bad, depth
  integer, volatile :: counter, held
  integer :: inside, overlaps

  n = env_threads()

  ! A non-atomic read-modify-write under the lock: exact only if the lock
  ! excludes.
  call omp_init_lock(lck)
  counter = 0
  inside = 0
  overlaps = 0
  !$omp parallel private(i) shared(counter, inside, overlaps)
  !$omp barrier
  do i = 1, iters
    call omp_set_lock(lck)
    call exclusive_bump(counter, inside, overlaps)
    call omp_unset_lock(lck)
  end do
  !$omp end parallel
  call check(counter == n * iters .and. overlaps == 0, &
             'counter under omp_set_lock')

  ! The same under an omp_test_lock spin.
  counter = 0
  !$omp parallel private(i) shared(counter, inside, overlaps)
  !$omp barrier
  do i = 1, iters
    do while (.not. omp_test_lock(lck))
    end do
    call exclusive_bump(counter, inside, overlaps)
    call omp_unset_lock(lck)
  end do
  !$omp end parallel
  call check(counter == n * iters .and. overlaps == 0, &
             'counter under an omp_test_lock spin')

  ! omp_test_lock false while another thread holds the lock (taken by
  ! omp_set_lock, then by omp_test_lock).
  bad = 0
  held = 0
  !$omp parallel num_threads(max(n, 2)) shared(bad, held)
  !$omp master
  call omp_set_lock(lck)
  held = 1
  !$omp end master
  call others_refused(lck, bad)
  !$omp master
  call omp_unset_lock(lck)
  if (.not. omp_test_lock(lck)) bad = bad + 1
  !$omp end master
  call others_refused(lck, bad)
  !$omp master
  call omp_unset_lock(lck)
  !$omp end master
  !$omp end parallel
  call check(bad == 0 .and. held == 1, &
             'omp_test_lock: held lock refused, free lock taken')
  call omp_destroy_lock(lck)

  ! Nest locks: three deep, omp_test_nest_lock answers the new depth.
  call omp_init_nest_lock(nlck)
  counter = 0
  bad = 0
  !$omp parallel private(i, depth) shared(counter, bad, inside, overlaps)
  !$omp barrier
  do i = 1, iters / 4
    call omp_set_nest_lock(nlck)
    call omp_set_nest_lock(nlck)
    depth = omp_test_nest_lock(nlck)
    if (depth /= 3) then
      !$omp atomic
      bad = bad + 1
    end if
    call exclusive_bump(counter, inside, overlaps)
    call omp_unset_nest_lock(nlck)
    call omp_unset_nest_lock(nlck)
    call omp_unset_nest_lock(nlck)
  end do
  !$omp end parallel
  call check(bad == 0, 'omp_test_nest_lock by the owner: depth 3')
  call check(counter == n * (iters / 4) .and. overlaps == 0, &
             'counter under a nest lock')

  ! omp_test_nest_lock by another thread while the master holds it: 0.
  bad = 0
  !$omp parallel num_threads(max(n, 2)) shared(bad)
  !$omp master
  call omp_set_nest_lock(nlck)
  if (omp_test_nest_lock(nlck) /= 2) bad = bad + 1
  !$omp end master
  !$omp barrier
  if (omp_get_thread_num() /= 0) then
    if (omp_test_nest_lock(nlck) /= 0) then
      !$omp atomic
      bad = bad + 1
    end if
  end if
  !$omp barrier
  !$omp master
  call omp_unset_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)
  if (omp_test_nest_lock(nlck) /= 1) bad = bad + 1
  call omp_unset_nest_lock(nlck)
  !$omp end master
  !$omp end parallel
  call check(bad == 0, 'omp_test_nest_lock: held by another thread')
  call omp_destroy_nest_lock(nlck)

  ! Several locks at once: each protects its own counter.
  do i = 1, size(many)
    call omp_init_lock(many(i))
    call omp_init_nest_lock(nmany(i))
  end do
  block
    integer :: per(8)
    per = 0
    !$omp parallel do private(i) shared(per)
    do i = 1, 8 * iters
      call omp_set_lock(many(mod(i, 8) + 1))
      call omp_set_nest_lock(nmany(mod(i, 8) + 1))
      call bump(per(mod(i, 8) + 1))
      call omp_unset_nest_lock(nmany(mod(i, 8) + 1))
      call omp_unset_lock(many(mod(i, 8) + 1))
    end do
    !$omp end parallel do
    call check(all(per == iters), 'eight locks, eight counters')
  end block
  do i = 1, size(many)
    call omp_destroy_lock(many(i))
    call omp_destroy_nest_lock(nmany(i))
  end do

  call finish('locks')
contains
  include 'checks.inc'
  include 'exclusive.inc'

  ! In a region whose master holds lck: every other thread's omp_test_lock
  ! must fail (counted in bad).
  subroutine others_refused(lck, bad)
    integer(omp_lock_kind), intent(inout) :: lck
    integer, intent(inout) :: bad
    !$omp barrier
    if (omp_get_thread_num() /= 0) then
      if (omp_test_lock(lck)) then
        !$omp atomic
        bad = bad + 1
      end if
    end if
    !$omp barrier
  end subroutine others_refused
end program locks
