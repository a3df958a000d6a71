# normgrad — the two commands of the README, and the steps behind them.
#   make run    set up, build, and run the example, the demo and the operator sample
#   make test   set up, build, and run the whole test suite: ctest, then the
#               Python package's pytest suite (each prints its summary)
#   make python the Python package, installed into the venv $(BUILD_DIR)/venv
#   make bench  the Google Benchmark suite; make compare: `normgrad bench`
#   make test-aarch64  the library's tests cross-compiled for 64-bit Arm and
#               run under qemu-aarch64 (the portable kernels on another CPU)
#   make format clang-format 14 over every C++ file; make format-check fails
#               on a file that differs from its formatted self (CI runs it)
# Scripts and tests use the system interpreter /usr/bin/python3 with Debian's
# python3-numpy (installed by `make deps`), not the separate python3 on PATH.
# The Python package goes into a virtual environment over that interpreter
# (--system-site-packages: Debian's numpy and torch stay visible), with its
# build and test requirements from the package index.

BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
PYTHON := /usr/bin/python3
export NORMGRAD_PYTHON := $(PYTHON)
VENV := $(BUILD_DIR)/venv
# The build requirements pyproject.toml names (scikit-build-core, nanobind):
# installed into the venv once, so rebuilds reuse $(BUILD_DIR)/python.
# (shell-quoted: they hold '>').
PYTHON_BUILD_REQUIRES = $(shell $(PYTHON) -c "import shlex, tomllib; print(' '.join(map(shlex.quote, \
  tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires'])))")

# Debian packages the build, tests, benchmarks and scripts need. The peers of
# `normgrad bench` are libtorch-dev (PyTorch's C++ API) and libdnnl-dev
# (oneDNN); python3-matplotlib draws `normgrad bench --plot`; qemu-user runs
# the x86-64 build on emulated CPUs without AVX-512 or AVX2 (tests/cpu);
# python3-mpi4py and openmpi-bin (mpirun) run normgrad.distributed over MPI.
APT_PACKAGES := g++ make cmake libgtest-dev libgmock-dev libbenchmark-dev \
                libcli11-dev python3 python3-numpy python3-torch python3-venv \
                libtorch-dev libdnnl-dev python3-matplotlib qemu-user \
                python3-mpi4py openmpi-bin

# The cross toolchain, qemu and GoogleTest's sources for `make test-aarch64`.
APT_CROSS_PACKAGES := g++-aarch64-linux-gnu qemu-user googletest

# clang-14 with LLVM's OpenMP (libomp and its ThreadSanitizer tool, archer)
# and the sanitizer and libFuzzer runtimes: the tsan and fuzz presets.
# clang-format-14: make format and make format-check (tools/format.sh).
APT_CLANG_PACKAGES := clang-14 libomp-14-dev libclang-rt-14-dev llvm-14 clang-format-14

.PHONY: deps deps-aarch64 deps-clang configure build python run test bench compare install clean \
        test-aarch64 format format-check

deps: PACKAGES = $(APT_PACKAGES)
deps-aarch64: PACKAGES = $(APT_CROSS_PACKAGES)
deps-clang: PACKAGES = $(APT_CLANG_PACKAGES)
deps deps-aarch64 deps-clang:
	@missing=""; \
	for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DNORMGRAD_BUILD_TOOLS=ON -DNORMGRAD_BUILD_TESTS=ON -DNORMGRAD_BUILD_BENCH=ON $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/bin/normgrad example
	$(BUILD_DIR)/bin/normgrad demo
	$(BUILD_DIR)/bin/normgrad sample

# The package with its test extras (pytest, ml-dtypes), built by pip through
# scikit-build-core with CMAKE_FLAGS (e.g. -DNORMGRAD_WERROR=ON).
python: deps
	test -x $(VENV)/bin/python || $(PYTHON) -m venv --system-site-packages $(VENV)
	$(VENV)/bin/pip install -q $(PYTHON_BUILD_REQUIRES)
	CMAKE_ARGS="$(CMAKE_FLAGS)" CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) $(VENV)/bin/pip install -q \
	  --no-build-isolation --config-settings=build-dir=$(BUILD_DIR)/python ".[test]"

# Both suites run and print their summaries; either failing fails the target.
test: build python
	@status=0; \
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS) || status=1; \
	NORMGRAD_CLI=$(abspath $(BUILD_DIR))/bin/normgrad $(VENV)/bin/python -m pytest -rs python/tests \
	  || status=1; \
	exit $$status

bench: build
	$(BUILD_DIR)/bin/normgrad_bench --benchmark_counters_tabular=true

# normgrad next to PyTorch, oneDNN and a plain loop: table and bar chart.
compare: build
	$(BUILD_DIR)/bin/normgrad bench --plot $(BUILD_DIR)/bench.png

# Library, kernels and Ascend C runtime tests only (the command-line tools
# and the programs built with normgrad-cc run on the build machine), through
# the aarch64 preset: one ctest test per test binary (a process start under
# qemu costs more than most cases), without the sweeps over all 2^32 floats
# (under qemu they took a third of CI's time; the conversions are checked
# there at every rounding boundary of every exponent and on a million random
# floats, and the native build sweeps every float: docs/decisions.md).
test-aarch64: deps-aarch64
	tools/cross/register-qemu-aarch64.sh
	cmake --preset aarch64 $(CMAKE_FLAGS)
	cmake --build --preset aarch64 -j $(JOBS)
	ctest --preset aarch64 -j $(JOBS)

format: deps-clang
	tools/format.sh

format-check: deps-clang
	tools/format.sh --check

install: build
	cmake --install $(BUILD_DIR) $(if $(PREFIX),--prefix $(PREFIX))

clean:
	rm -rf $(BUILD_DIR) build-aarch64
