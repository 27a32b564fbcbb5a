! Allocators and places through the Fortran omp_lib: omp_init_allocator
! with an alignment trait (memory from omp_alloc aligned to it; a
! non-power-of-two alignment refused), the default allocator set and read
! back, omp_destroy_allocator; with OMP_PLACES=threads and
! OMP_PROC_BIND=close (this program's registration): the number of places,
! each place's one processor (omp_get_place_proc_ids), the partition, the
! binding policy and each thread's place.
program memory_places
  use omp_lib
  use, intrinsic :: iso_c_binding
  implicit none
  integer :: failures = 0
  integer(omp_allocator_handle_kind) :: a, bad_a
  type(omp_alloctrait) :: traits(1)
  type(c_ptr) :: mem
  integer :: np, p, bad, ids(1)
  integer, allocatable :: procs(:), nums(:)

  traits(1) = omp_alloctrait(omp_atk_alignment, 256)
  a = omp_init_allocator(omp_default_mem_space, 1, traits)
  call check(a /= omp_null_allocator, 'omp_init_allocator(alignment 256)')
  mem = omp_alloc(100_c_size_t, a)
  call check(c_associated(mem), 'omp_alloc from the new allocator')
  call check(mod(transfer(mem, 0_c_intptr_t), 256_c_intptr_t) == 0, &
             'omp_alloc: aligned to the trait')
  call omp_free(mem, a)
  call omp_set_default_allocator(a)
  call check(omp_get_default_allocator() == a, 'omp_set_default_allocator')
  mem = omp_alloc(10_c_size_t, omp_null_allocator)
  call check(mod(transfer(mem, 0_c_intptr_t), 256_c_intptr_t) == 0, &
             'omp_alloc(omp_null_allocator): the default allocator''s alignment')
  call omp_free(mem, omp_null_allocator)
  call omp_set_default_allocator(omp_default_mem_alloc)
  call check(omp_get_default_allocator() == omp_default_mem_alloc, &
             'omp_set_default_allocator(omp_default_mem_alloc)')
  call omp_destroy_allocator(a)
  traits(1) = omp_alloctrait(omp_atk_alignment, 48)
  bad_a = omp_init_allocator(omp_default_mem_space, 1, traits)
  call check(bad_a == omp_null_allocator, &
             'omp_init_allocator refuses alignment 48')

  ! Places: one per hardware thread the process may use.
  np = omp_get_num_places()
  call check(np == omp_get_num_procs(), 'omp_get_num_places = omp_get_num_procs')
  allocate (procs(np), nums(max(np, 1)))
  do p = 0, np - 1
    call check(omp_get_place_num_procs(p) == 1, 'omp_get_place_num_procs')
    ids = -1
    call omp_get_place_proc_ids(p, ids)
    procs(p + 1) = ids(1)
  end do
  call check(all(procs >= 0), 'omp_get_place_proc_ids')
  do p = 2, np
    call check(all(procs(1:p - 1) /= procs(p)), 'one processor per place')
  end do
  call check(omp_get_place_num_procs(np) == 0, &
             'omp_get_place_num_procs of no place')
  call check(omp_get_partition_num_places() == np, &
             'omp_get_partition_num_places')
  nums = -1
  call omp_get_partition_place_nums(nums)
  do p = 1, np
    call check(nums(p) == p - 1, 'omp_get_partition_place_nums')
  end do
  call check(omp_get_proc_bind() == omp_proc_bind_close, &
             'omp_get_proc_bind = OMP_PROC_BIND')
  bad = 0
  !$omp parallel shared(bad)
  if (omp_get_place_num() < 0 .or. omp_get_place_num() >= np) then
    !$omp atomic
    bad = bad + 1
  end if
  !$omp end parallel
  call check(bad == 0, 'omp_get_place_num of a bound thread')

  call finish('memory_places')
contains
  include 'checks.inc'
end program memory_places
