# The region benchmarks and their MPI twins (bench/regions/, issue 12) at
# small sizes, each checked against its serial computation (--verify 1:
# exit 1 on any difference): the region version at 1, 2 and 4 workers (built
# here from the benchmark's source, so that the ThreadSanitizer set runs it
# too: the 2-worker one carries the tsan label), at 2 workers under the
# 1x2x2 scheduler tree, and the MPI version at 2 ranks through
# tests/dist/run_mpi.py (the bench targets; not under a sanitizer).
set(weft_twin_args_jacobi --n 256 --iters 10)
set(weft_twin_wargs_jacobi --blocks 8) # the region version's only
set(weft_twin_args_matmul --n 128 --regions 2 --tiles 2)
set(weft_twin_args_bitonic --n 16384 --regions 2 --tiles 8)
set(weft_twin_args_kmeans --points 8192 --clusters 8 --regions 2 --tiles 4
    --iters 3)
set(weft_twin_args_ray --width 96 --height 64 --regions 2 --tiles 4)
set(weft_twin_args_barnes --bodies 1024 --regions 2 --steps 2)
if(WEFT_BUILD_BENCH AND NOT WEFT_SANITIZE)
  find_package(MPI COMPONENTS C)
endif()
foreach(name jacobi matmul bitonic kmeans ray barnes)
  set(target weft_twin_${name}_regions)
  add_executable(${target} ${PROJECT_SOURCE_DIR}/bench/regions/${name}_regions.c)
  target_link_libraries(${target} PRIVATE weft m)
  target_compile_options(${target} PRIVATE ${WEFT_WARNINGS})
  weft_timeout(timeout 30)
  foreach(n 1 2 4)
    set(labels weft regions threads-${n})
    if(n EQUAL 2)
      list(APPEND labels tsan)
    endif()
    add_test(NAME regions.bench.${name}.t${n}
             COMMAND ${target} ${weft_twin_args_${name}}
                     ${weft_twin_wargs_${name}} --verify 1)
    set_tests_properties(regions.bench.${name}.t${n} PROPERTIES
      TIMEOUT ${timeout} LABELS "${labels}"
      ENVIRONMENT "WEFT_NUM_THREADS=${n}")
  endforeach()
  # Under a three-level scheduler tree, placement by the score.
  add_test(NAME regions.bench.${name}.s1x2x2.t2
           COMMAND ${target} ${weft_twin_args_${name}}
                   ${weft_twin_wargs_${name}} --verify 1)
  set_tests_properties(regions.bench.${name}.s1x2x2.t2 PROPERTIES
    TIMEOUT ${timeout} LABELS "weft;regions;threads-2"
    ENVIRONMENT "WEFT_NUM_THREADS=2;WEFT_SCHEDULERS=1x2x2")
  if(WEFT_BUILD_BENCH AND NOT WEFT_SANITIZE AND MPI_C_FOUND)
    add_test(NAME regions.bench.${name}.mpi.np2
             COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/dist/run_mpi.py
                     --np 2 -- $<TARGET_FILE:${name}_mpi>
                     ${weft_twin_args_${name}} --verify 1)
    set_tests_properties(regions.bench.${name}.mpi.np2 PROPERTIES
      TIMEOUT ${timeout} LABELS "weft;regions;mpi")
  endif()
endforeach()
