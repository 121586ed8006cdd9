# Tessera: the two set-up commands are `make demo` and `make test` (see README.md).
# Both install the Debian packages they need when missing (with apt-get when run as root,
# otherwise they print the exact command), then build with SwiftPM.

SWIFT ?= swift
export PATH := $(PATH):/opt/swift/usr/bin

# Build and run dependencies (C headers, Mesa's EGL/GLES with llvmpipe, pkg-config).
DEBIAN_PACKAGES := pkg-config libegl-dev libgles-dev libgbm-dev libegl-mesa0 libgl1-mesa-dri \
	libpng-dev libjpeg62-turbo-dev libwebp-dev libgif-dev zlib1g-dev libsqlite3-dev libcurl4-openssl-dev \
	libfreetype-dev libharfbuzz-dev libharfbuzz-bin libfribidi-dev fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
	libmicrohttpd-dev libssl-dev nginx wrk libjs-leaflet chromium

DEMO_OUTPUT ?= demo.png
DEMO_ARGS := --center 40.0,-74.0 --zoom 16.5 --tilt 60 --bearing 30 --size 1024x768

.PHONY: all deps pytools build demo test bench bench-serve bench-tiles bench-tiles-memory lint warnings format \
	clean mesa-cache-repro determinism

all: build

deps:
	@missing=""; \
	for package in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing Debian packages; install them with:"; \
	    echo "  sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi

# The Swift runtime and Foundation are linked statically: a process starts about 15 ms sooner
# (no relocation of Foundation's shared libraries), which every `tessera render` pays.
build: deps
	$(SWIFT) build -c release --product tessera --static-swift-stdlib

demo: build
	.build/release/tessera render $(DEMO_ARGS) --output $(DEMO_OUTPUT)

# Test-only tools from PyPI (offline afterwards): the Kubernetes manifest validator. A failed
# install leaves the check skipped with a printed reason.
PYTOOLS := .build/pytools
pytools:
	@test -d $(PYTOOLS)/kubernetes_validate || python3 -m pip install --quiet --disable-pip-version-check \
	  --target $(PYTOOLS) kubernetes-validate >/dev/null 2>&1 || echo "kubernetes-validate not installed: its test is skipped"

# The example package of snapshot tests (Examples/SnapshotTesting) builds against this checkout
# and runs as a user's CI would run it.
# The example's snapshots are checked at llvmpipe's two vector widths, one run after the
# other in one shell (so sharing Mesa's shader cache), as a user's CI matrix would.
# TESSERA_RECORD=1 re-records the golden images and TesseraTesting's references (the tests still
# fail, so every new image is looked at before it is committed).
# Each test run gets a temporary folder of its own, removed when the run passes (what a test
# writes to the temporary folder and does not remove goes with it) and kept when it fails.
test: deps pytools warnings
	Tools/test/in-temporary-folder.sh $(SWIFT) test --skip-build
	cd Examples/SnapshotTesting && LP_NATIVE_VECTOR_WIDTH=128 ../../Tools/test/in-temporary-folder.sh $(SWIFT) test
	cd Examples/SnapshotTesting && LP_NATIVE_VECTOR_WIDTH=256 ../../Tools/test/in-temporary-folder.sh $(SWIFT) test
	$(MAKE) lint

# Side-by-side benchmark against MapLibre Native; regenerates BENCHMARKS.md (several minutes).
SHARED ?= ../shared
BENCH_ARGS ?=
GPU_JSON ?=
bench: build
	python3 Tools/bench/benchmarks.py --tessera .build/release/tessera --shared $(SHARED) $(BENCH_ARGS) \
	  $(if $(GPU_JSON),--gpu-json $(GPU_JSON))

# Load benchmark of `tessera serve` against `tessera render --batch` and MapLibre Native behind
# a Python HTTP server (loopback only, bounded; several minutes).
bench-serve: build
	python3 Tools/bench/bench_serve.py --tessera .build/release/tessera --shared $(SHARED) $(BENCH_ARGS)

bench-tiles: build
	python3 Tools/bench/bench_tiles.py --tessera .build/release/tessera --shared $(SHARED) $(BENCH_ARGS)

bench-tiles-memory: build
	python3 Tools/bench/tiles_memory.py --tessera .build/release/tessera $(BENCH_ARGS)

# Every golden at llvmpipe's two vector widths and 1, 2 and 8 rasterizer threads, twice each,
# compared byte for byte (make test runs a representative set).
determinism: deps
	$(SWIFT) build --build-tests
	TESSERA_DETERMINISM=full $(SWIFT) test --skip-build --filter DeterminismMatrixTests

# Mesa 22.3's shader cache ignoring llvmpipe's vector width, shown with a few GL calls.
mesa-cache-repro: deps
	Tools/mesa-cache-key/run.sh

# The build of the package and its tests, its output kept: any `warning:` in it fails. On a
# clean checkout (CI) that is every file; locally, every file the change recompiled.
BUILD_LOG := .build/build-tests.log
warnings: deps
	@mkdir -p .build
	@$(SWIFT) build --build-tests > $(BUILD_LOG) 2>&1; status=$$?; cat $(BUILD_LOG); \
	if [ $$status -ne 0 ]; then exit $$status; fi; \
	if grep -q 'warning:' $(BUILD_LOG); then \
	  echo "compiler warnings (the build must have none):"; grep 'warning:' $(BUILD_LOG) | sort -u; exit 1; \
	fi

lint: warnings
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Tools Shaders Examples

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Tools Shaders Examples

clean:
	rm -rf .build $(DEMO_OUTPUT)
