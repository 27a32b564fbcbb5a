! The thread, team and level queries and the ICV setters and getters of
! the Fortran omp_lib (omp_*_ entry points), checked against what OpenMP
! specifies: thread numbers and team sizes in a region, nested levels and
! ancestors, dynamic / nested / max-active-levels, schedule, teams, devices,
! the environment ICVs this program's registration sets (OMP_CANCELLATION,
! OMP_MAX_TASK_PRIORITY, OMP_THREAD_LIMIT), pause and the timers.
program team
  use omp_lib
  implicit none
  integer :: failures = 0
  integer :: n, nt, id, i, bad, outer, chunk, sum_
  integer, allocatable :: seen(:)
  integer(omp_sched_kind) :: kind_
  double precision :: t0, t1, t2
  integer :: team_seen(0:2)

  n = env_threads()
  call check(omp_get_max_threads() == n, 'omp_get_max_threads = OMP_NUM_THREADS')
  call check(omp_get_num_threads() == 1, 'omp_get_num_threads outside a region')
  call check(omp_get_thread_num() == 0, 'omp_get_thread_num outside a region')
  call check(.not. omp_in_parallel(), 'omp_in_parallel outside a region')
  call check(omp_get_level() == 0, 'omp_get_level outside a region')
  call check(omp_get_active_level() == 0, 'omp_get_active_level outside')
  call check(omp_get_num_procs() >= 1, 'omp_get_num_procs >= 1')
  call check(omp_get_thread_limit() == 64, 'omp_get_thread_limit = OMP_THREAD_LIMIT')
  call check(omp_get_cancellation(), 'omp_get_cancellation = OMP_CANCELLATION')
  call check(omp_get_max_task_priority() == 7, &
             'omp_get_max_task_priority = OMP_MAX_TASK_PRIORITY')

  ! Thread numbers: each of 0..n-1 exactly once; the team size n.
  allocate (seen(0:n - 1))
  seen = 0
  bad = 0
  nt = -1
  !$omp parallel private(id) shared(seen, bad, nt)
  id = omp_get_thread_num()
  if (id < 0 .or. id >= n) then
    !$omp atomic
    bad = bad + 1
  else
    !$omp atomic
    seen(id) = seen(id) + 1
  end if
  if (omp_get_level() /= 1) then
    !$omp atomic
    bad = bad + 1
  end if
  if (omp_in_parallel() .neqv. (omp_get_num_threads() > 1)) then
    !$omp atomic
    bad = bad + 1
  end if
  !$omp single
  nt = omp_get_num_threads()
  !$omp end single
  !$omp end parallel
  call check(bad == 0, 'thread numbers, level and omp_in_parallel in a region')
  call check(nt == n, 'omp_get_num_threads in a region = OMP_NUM_THREADS')
  call check(all(seen == 1), 'each thread number once')

  ! omp_set_num_threads: the next region's size.
  call omp_set_num_threads(3)
  call check(omp_get_max_threads() == 3, 'omp_set_num_threads(3)')
  call check(region_size() == 3, &
             'a region after omp_set_num_threads(3) has 3 threads')
  call omp_set_num_threads(n)

  ! dynamic, nested, max-active-levels.
  call omp_set_dynamic(.true.)
  call check(omp_get_dynamic(), 'omp_set_dynamic(.true.)')
  call omp_set_dynamic(.false.)
  call check(.not. omp_get_dynamic(), 'omp_set_dynamic(.false.)')
  call omp_set_nested(.true.)
  call check(omp_get_nested(), 'omp_set_nested(.true.)')
  call omp_set_nested(.false.)
  call check(.not. omp_get_nested(), 'omp_set_nested(.false.)')
  call check(omp_get_max_active_levels() == 1, 'nested false: 1 active level')
  call check(omp_get_supported_active_levels() >= 2, &
             'omp_get_supported_active_levels >= 2')
  call omp_set_max_active_levels(2)
  call check(omp_get_max_active_levels() == 2, 'omp_set_max_active_levels(2)')

  ! Nested regions: levels, ancestors and team sizes.
  bad = 0
  !$omp parallel num_threads(2) private(outer) shared(bad)
  outer = omp_get_thread_num()
  !$omp parallel num_threads(2) shared(bad, outer)
  if (omp_get_level() /= 2) bad = ior(bad, 1)
  if (omp_get_active_level() /= 2) bad = ior(bad, 2)
  if (omp_get_ancestor_thread_num(0) /= 0) bad = ior(bad, 4)
  if (omp_get_ancestor_thread_num(1) /= outer) bad = ior(bad, 8)
  if (omp_get_ancestor_thread_num(2) /= omp_get_thread_num()) bad = ior(bad, 16)
  if (omp_get_ancestor_thread_num(3) /= -1) bad = ior(bad, 32)
  if (omp_get_team_size(0) /= 1) bad = ior(bad, 64)
  if (omp_get_team_size(1) /= 2) bad = ior(bad, 128)
  if (omp_get_team_size(2) /= 2) bad = ior(bad, 256)
  if (omp_get_team_size(-1) /= -1) bad = ior(bad, 512)
  !$omp end parallel
  !$omp end parallel
  if (bad /= 0) write (0, '(a,i0)') 'nested region check bits: ', bad
  call check(bad == 0, 'nested levels, ancestors and team sizes')
  call omp_set_max_active_levels(1)

  ! The run-sched-var, and a schedule(runtime) loop that uses it.
  call omp_set_schedule(omp_sched_dynamic, 7)
  call omp_get_schedule(kind_, chunk)
  call check(kind_ == omp_sched_dynamic .and. chunk == 7, &
             'omp_set_schedule(dynamic, 7)')
  call omp_set_schedule(omp_sched_guided, 3)
  call omp_get_schedule(kind_, chunk)
  call check(kind_ == omp_sched_guided .and. chunk == 3, &
             'omp_set_schedule(guided, 3)')
  call omp_set_schedule(omp_sched_static, 5)
  call omp_get_schedule(kind_, chunk)
  call check(kind_ == omp_sched_static .and. chunk == 5, &
             'omp_set_schedule(static, 5)')
  sum_ = 0
  !$omp parallel do schedule(runtime) reduction(+:sum_)
  do i = 1, 1000
    sum_ = sum_ + i
  end do
  !$omp end parallel do
  call check(sum_ == 500500, 'a schedule(runtime) loop')

  ! Host teams: the teams ICVs and each team number once.
  call omp_set_num_teams(3)
  call check(omp_get_max_teams() == 3, 'omp_set_num_teams(3)')
  call omp_set_teams_thread_limit(2)
  call check(omp_get_teams_thread_limit() == 2, 'omp_set_teams_thread_limit(2)')
  call check(omp_get_num_teams() == 1 .and. omp_get_team_num() == 0, &
             'one team outside a teams construct')
  team_seen = 0
  bad = 0
  ! (No atomics in a teams region: each team writes its own element; a
  ! number out of range marks the last one.)
  !$omp teams num_teams(3)
  if (omp_get_num_teams() /= 3 .or. omp_get_team_num() < 0 &
      .or. omp_get_team_num() > 2) then
    team_seen(2) = 99
  else
    team_seen(omp_get_team_num()) = team_seen(omp_get_team_num()) + 1
  end if
  !$omp end teams
  call check(bad == 0 .and. all(team_seen == 1), &
             'omp_get_num_teams / omp_get_team_num in teams')

  ! Devices: the host only.
  call check(omp_get_num_devices() == 0, 'omp_get_num_devices')
  call check(omp_is_initial_device(), 'omp_is_initial_device')
  call check(omp_get_initial_device() == omp_get_num_devices(), &
             'omp_get_initial_device')
  call check(omp_get_device_num() == omp_get_initial_device(), &
             'omp_get_device_num')
  call omp_set_default_device(0)
  call check(omp_get_default_device() == 0, 'omp_set_default_device(0)')

  ! Binding: this registration sets no OMP_PROC_BIND.
  call check(omp_get_proc_bind() == omp_proc_bind_false, 'omp_get_proc_bind')

  ! Timers: monotonic, a positive tick.
  call check(omp_get_wtick() > 0.0d0 .and. omp_get_wtick() < 1.0d0, &
             'omp_get_wtick in (0, 1)')
  bad = 0
  t0 = omp_get_wtime()
  t1 = t0
  do i = 1, 100000
    t2 = omp_get_wtime()
    if (t2 < t1) bad = bad + 1
    t1 = t2
  end do
  call check(bad == 0 .and. t1 >= t0, 'omp_get_wtime monotonic')
  t0 = omp_get_wtime()
  call spin_ms(60)
  t1 = omp_get_wtime() - t0
  call check(t1 >= 0.055d0 .and. t1 < 10.0d0, &
             'omp_get_wtime measures 60 ms of system_clock')

  ! Pausing: allowed outside a region, and OpenMP stays usable after.
  call check(omp_pause_resource(omp_pause_soft, omp_get_initial_device()) == 0, &
             'omp_pause_resource(soft, host)')
  call check(omp_pause_resource_all(omp_pause_hard) == 0, &
             'omp_pause_resource_all(hard)')
  call check(region_size() == n, 'a region after omp_pause_resource_all')

  call finish('team')
contains
  include 'checks.inc'

  ! The size of the team a parallel region gets now.
  integer function region_size()
    integer :: size_
    size_ = -1
    !$omp parallel shared(size_)
    !$omp single
    size_ = omp_get_num_threads()
    !$omp end single
    !$omp end parallel
    region_size = size_
  end function region_size

  ! Busy-waits ms milliseconds of the Fortran clock (system_clock).
  subroutine spin_ms(ms)
    integer, intent(in) :: ms
    integer(8) :: c0, c, rate
    call system_clock(c0, rate)
    c = c0
    do while ((c - c0) * 1000 < ms * rate)
      call system_clock(c)
    end do
  end subroutine spin_ms
end program team
