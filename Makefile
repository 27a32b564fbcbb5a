# weft — the commands a newcomer needs: `make demo` and `make test`.
.PHONY: all build deps install package test test-release test-tsan test-debug bench demo asan clean format format-check

all: build

deps:
	@scripts/deps

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release

# Installs the library, headers, the weft command, the CMake package and
# weft.pc under PREFIX (docs/getting-started.md).
PREFIX ?= /usr/local
install: build
	@cmake --install build --prefix $(PREFIX)

# build/weft_<version>_amd64.deb (CPack).
package: build
	@cd build && cpack -G DEB

# Every file formatted as .clang-format says, every test in the release
# build, then the ThreadSanitizer set (label "tsan").
test: format-check test-release test-tsan

# Formatting, and no "../" include in src/ (it would step around the layer
# views that make a back-edge fail to build, src/CMakeLists.txt).
format-check: deps
	@clang-format --dry-run -Werror $$(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')
	@! git grep -n '#include "\.\./' -- src || { echo "src/: include from src/ (\"core/task.hpp\"), not \"../\""; exit 1; }

test-release: build
	@ctest --preset release -j2

test-tsan: deps
	@cmake --preset tsan >/dev/null
	@cmake --build --preset tsan
	@ctest --preset tsan -L tsan -j2

# Not part of `make test` (too long for it on 2 cores; docs/testing.md):
# every test in the -O0 debug build (WEFT_CHECK and assert compiled in) ...
test-debug: deps
	@cmake --preset debug >/dev/null
	@cmake --build --preset debug
	@ctest --preset debug -j2

# ... and under AddressSanitizer + UBSan, the OpenMP corpus included.
asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan
	@ctest --preset asan -j2

# The papers' applications under libgomp, libomp and weft; two of them traced
# and replayed on 1-64 modelled cores, then every one under ideal and sw
# (where weft's own costs would cap it); the native API's task overheads, then
# the same gcc -fopenmp binaries under libgomp, libomp and weft (weft run):
# tasks and EPCC construct overheads; then the hardware engine models against
# the sw engine (docs/validation.md).
bench: build
	@python3 bench/run_apps.py --build build
	@python3 bench/run_sim.py --build build
	@python3 bench/run_scaling.py --build build
	@python3 bench/run_micro.py --build build
	@python3 bench/run_gomp.py --build build
	@python3 bench/run_engines.py --build build
	@python3 bench/run_places.py --build build

# The main job: the papers' applications under weft, libgomp and LLVM libomp
# (unmodified gcc -fopenmp binaries), two of them traced and simulated on
# 1-64 modelled cores (plots in build/results), then the task overheads
# through the native API and the GOMP ABI, and the engine models.
demo: build
	@python3 bench/run_apps.py --build build --quick
	@python3 bench/run_sim.py --build build --quick
	@python3 bench/run_micro.py --build build --quick
	@python3 bench/run_gomp.py --build build --quick
	@python3 bench/run_engines.py --build build --quick --threads 2
	@python3 bench/run_nexus_rtl.py --build build --quick
	@python3 bench/run_places.py --build build --quick --reps 3
	@python3 tests/dist/run_mpi.py --np 2 -- build/bin/leader_elect_lcr --mpi --nodes 64
	@python3 bench/run_regions.py --build build --quick --bench jacobi
	@build/bin/myrmics_model

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')

clean:
	rm -rf build
