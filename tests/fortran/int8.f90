! The _8 entry points of the Fortran omp_lib: built with
! -fdefault-integer-8, so INTEGER and LOGICAL arguments are 8 bytes and
! omp_lib's generic interfaces call omp_*_8_ (the registration checks that
! the binary calls all 16). Values beyond int's range are clamped, as
! libgomp does: omp_set_num_threads(2**33 + 2) sets INT_MAX threads, not 2.
program int8
  use omp_lib
  implicit none
  integer :: failures = 0
  integer :: n, chunk, bad, outer, np, p
  integer(omp_sched_kind) :: kind_
  integer(omp_allocator_handle_kind) :: a
  type(omp_alloctrait) :: traits(1)
  integer, allocatable :: ids8(:), nums8(:)
  integer(4), allocatable :: ids4(:), nums4(:)

  n = env_threads()
  call omp_set_num_threads(3)
  call check(omp_get_max_threads() == 3, 'omp_set_num_threads_8(3)')
  call omp_set_num_threads(2_8**33 + 2)
  call check(omp_get_max_threads() == huge(0_4), &
             'omp_set_num_threads_8(2**33+2) clamps to INT_MAX')
  call omp_set_num_threads(n)

  call omp_set_dynamic(.true.)
  call check(logical(omp_get_dynamic()), 'omp_set_dynamic_8(.true.)')
  call omp_set_dynamic(.false.)
  call check(.not. logical(omp_get_dynamic()), 'omp_set_dynamic_8(.false.)')
  call omp_set_nested(.true.)
  call check(logical(omp_get_nested()), 'omp_set_nested_8(.true.)')
  call omp_set_nested(.false.)
  call check(.not. logical(omp_get_nested()), 'omp_set_nested_8(.false.)')
  call omp_set_max_active_levels(2)
  call check(omp_get_max_active_levels() == 2, 'omp_set_max_active_levels_8(2)')

  bad = 0
  !$omp parallel num_threads(2) private(outer) shared(bad)
  outer = omp_get_thread_num()
  !$omp parallel num_threads(2) shared(bad, outer)
  if (omp_get_ancestor_thread_num(1) /= outer) bad = ior(bad, 1)
  if (omp_get_ancestor_thread_num(2) /= omp_get_thread_num()) bad = ior(bad, 2)
  if (omp_get_ancestor_thread_num(2_8**32 + 1) /= -1) bad = ior(bad, 4)
  if (omp_get_team_size(1) /= 2) bad = ior(bad, 8)
  if (omp_get_team_size(0) /= 1) bad = ior(bad, 16)
  if (omp_get_team_size(-2_8**32) /= -1) bad = ior(bad, 32)
  !$omp end parallel
  !$omp end parallel
  if (bad /= 0) write (0, '(a,i0)') 'nested region check bits: ', bad
  call check(bad == 0, 'omp_get_ancestor_thread_num_8 / omp_get_team_size_8')
  call omp_set_max_active_levels(1)

  call omp_set_schedule(omp_sched_guided, 9)
  call omp_get_schedule(kind_, chunk)
  call check(kind_ == omp_sched_guided .and. chunk == 9, &
             'omp_set_schedule_8 / omp_get_schedule_8')
  call omp_set_schedule(omp_sched_dynamic, 2_8**40)
  call omp_get_schedule(kind_, chunk)
  call check(kind_ == omp_sched_dynamic .and. chunk == huge(0_4), &
             'omp_set_schedule_8 clamps the chunk to INT_MAX')

  call omp_set_default_device(0)
  call check(omp_get_default_device() == 0, 'omp_set_default_device_8')
  call omp_set_num_teams(4)
  call check(omp_get_max_teams() == 4, 'omp_set_num_teams_8')
  call omp_set_teams_thread_limit(3)
  call check(omp_get_teams_thread_limit() == 3, 'omp_set_teams_thread_limit_8')

  ! Places (OMP_PLACES=threads in the registration): the 8-byte answers
  ! equal the 4-byte ones.
  np = omp_get_num_places()
  call check(np >= 1, 'places from OMP_PLACES')
  do p = 0, np - 1
    call check(omp_get_place_num_procs(p) == omp_get_place_num_procs(int(p, 4)), &
               'omp_get_place_num_procs_8')
    allocate (ids8(omp_get_place_num_procs(p)), ids4(omp_get_place_num_procs(p)))
    ids8 = -1
    ids4 = -2
    call omp_get_place_proc_ids(p, ids8)
    call omp_get_place_proc_ids(int(p, 4), ids4)
    call check(all(ids8 == ids4), 'omp_get_place_proc_ids_8')
    deallocate (ids8, ids4)
  end do
  allocate (nums8(max(np, 1)), nums4(max(np, 1)))
  nums8 = -1
  nums4 = -2
  call omp_get_partition_place_nums(nums8)
  call omp_get_partition_place_nums(nums4)
  call check(all(nums8(1:np) == nums4(1:np)), 'omp_get_partition_place_nums_8')

  traits(1) = omp_alloctrait(omp_atk_alignment, 128)
  a = omp_init_allocator(omp_default_mem_space, 1, traits)
  call check(a /= omp_null_allocator, 'omp_init_allocator_8')
  block
    use, intrinsic :: iso_c_binding
    type(c_ptr) :: mem
    mem = omp_alloc(8_c_size_t, a)
    call check(mod(transfer(mem, 0_c_intptr_t), 128_c_intptr_t) == 0, &
               'omp_init_allocator_8: the alignment trait')
    call omp_free(mem, a)
  end block
  call omp_destroy_allocator(a)

  ! Checked by the registration on stderr (verbose: GOMP_SPINCOUNT shown).
  call omp_display_env(.true.)

  call finish('int8')
contains
  include 'checks.inc'
end program int8
