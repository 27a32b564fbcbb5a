# weft — the commands a newcomer needs: `make demo` and `make test`.
.PHONY: all build deps test test-release test-tsan bench demo asan clean format

all: build

deps:
	@scripts/deps

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release

# Every test in the release build, then the ThreadSanitizer set (label "tsan").
test: test-release test-tsan

test-release: build
	@ctest --preset release -j2

test-tsan: deps
	@cmake --preset tsan >/dev/null
	@cmake --build --preset tsan
	@ctest --preset tsan -L tsan -j2

asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan
	@ctest --preset asan -j2

# The native API's task overheads, then the same gcc -fopenmp binaries under
# libgomp, libomp and weft (weft run): tasks and EPCC construct overheads;
# then the hardware engine models against the sw engine (docs/validation.md).
bench: build
	@python3 bench/run_micro.py --build build
	@python3 bench/run_gomp.py --build build
	@python3 bench/run_engines.py --build build

# The main job: weft against libgomp and LLVM libomp, through its native API
# and as a drop-in libgomp for unmodified gcc -fopenmp binaries.
demo: build
	@python3 bench/run_micro.py --build build --quick
	@python3 bench/run_gomp.py --build build --quick
	@python3 bench/run_engines.py --build build --quick --threads 2

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')

clean:
	rm -rf build
