# jsworker build and test entry points. `make help` lists the targets; CI runs `make test` (.ci/run).

GO ?= go
GOFMT ?= gofmt
BUILD_DIR ?= build
# The pinned linter, run with `go run` so nothing needs installing.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 60s
# How long Go's fuzzing engine minimizes each new interesting input (Go's default, 60s, is most of a young
# corpus's fuzzing time; Nx means N runs).
FUZZMINIMIZE ?= 100x
SOAKTIME ?= 60m
CMAKE ?= cmake
CTEST ?= ctest
CMAKE_FLAGS ?=

LIB := $(BUILD_DIR)/libjsworker.so
CTEST_DIR := $(BUILD_DIR)/ctest

# The library's version comes from the header (the contract); its SONAME carries the major version.
VERSION := $(shell sed -n 's/^\#define JSWORKER_VERSION_STRING "\(.*\)"/\1/p' include/jsworker.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME := libjsworker.so.$(SOMAJOR)

# `make install` layout (GNU conventions; DESTDIR stages a package).
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CMAKEDIR ?= $(LIBDIR)/cmake/jsworker
INSTALL ?= install
PYTHON ?= python3
CARGO ?= cargo

# Go sources to format-check: everything tracked or new, except generated or test-data trees.
GO_FILES = $(shell find . -name '*.go' -not -path './$(BUILD_DIR)/*' -not -path '*/testdata/*' -not -path './.git/*')

# bash for pipefail in `bench`; the recipes are otherwise plain sh.
SHELL := /bin/bash
.DEFAULT_GOAL := build
# The steps of `test` and `check` run in the order written, even under -j.
.NOTPARALLEL:

.PHONY: install uninstall python-test rust-test package-test
.PHONY: help build run test deps check bench bench-c bench-idle bench-load-floor bench-compare fuzz fuzz-capi soak memtest-full clean fmtcheck vet gotest ctest ctest-build staticcheck tidycheck

help: ## Show this help
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "%-14s %s\n", $$1, $$2}'

CLI := $(BUILD_DIR)/jsworker

build: ## Build the C shared library build/libjsworker.so (the header is include/jsworker.h) and the jsworker command build/jsworker
	$(GO) build -o $(CLI) ./cmd/jsworker
	$(GO) build -buildmode=c-shared -ldflags=-extldflags=-Wl,-soname,$(SONAME) -o $(LIB) ./cmd/libbuild
	@# Programs linked against it record the SONAME, so the build tree needs that name too.
	@ln -sf libjsworker.so $(BUILD_DIR)/$(SONAME)
	@# cgo's generated header is not the contract (and omits capi's exports); do not leave it lying around.
	@rm -f $(BUILD_DIR)/libjsworker.h

DEMO := $(BUILD_DIR)/cdemo

run: build ## Build libjsworker.so, then run the C demo host (examples/cdemo: 4 workers split a job)
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -Iinclude -o $(DEMO) examples/cdemo/main.c \
		-L$(BUILD_DIR) -ljsworker -Wl,-rpath,$(abspath $(BUILD_DIR))
	$(DEMO)

test: deps fmtcheck vet gotest build ctest python-test rust-test package-test ## Run the full suite: deps, gofmt, vet, Go tests (-race -short), C/C++ tests (CTest), bindings, packaging

deps: ## Check the tools (go, gcc, g++, cmake, nm, pkg-config, python3); as root with apt-get, install the missing ones
	@command -v $(GO) >/dev/null 2>&1 || { \
		echo "deps: '$(GO)' not found. jsworker needs Go 1.26 or newer: download it from https://go.dev/dl/" >&2; \
		echo "      (e.g. go1.26.8.linux-amd64.tar.gz), unpack it with 'tar -C /usr/local -xzf go1.26.8.linux-amd64.tar.gz'" >&2; \
		echo "      and add /usr/local/go/bin to PATH, or run make with GO=/path/to/go." >&2; \
		exit 1; }
	@missing=; pkgs=; \
	for t in gcc:gcc g++:g++ $(CMAKE):cmake nm:binutils pkg-config:pkg-config $(PYTHON):python3; do \
		command -v "$${t%%:*}" >/dev/null 2>&1 || { missing="$$missing $${t%%:*}"; pkgs="$$pkgs $${t##*:}"; }; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "deps: missing:$$missing; installing cmake g++ binutils pkg-config python3 with apt-get"; \
			apt-get update && \
			DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends cmake g++ binutils pkg-config python3 || exit 1; \
		else \
			echo "deps: missing:$$missing" >&2; \
			echo "      install the packages:$$pkgs (Debian/Ubuntu: sudo apt-get install -y --no-install-recommends$$pkgs)" >&2; \
			exit 1; \
		fi; \
	fi
	@echo "deps: $$($(GO) version | cut -d' ' -f3-), $$(gcc -dumpfullversion 2>/dev/null | sed 's/^/gcc /'), $$($(CMAKE) --version | sed -n 1p)"

check: fmtcheck vet staticcheck tidycheck ## Pre-flight for a pull request: gofmt, go vet, staticcheck, go mod tidy

bench: ## Run the benchmarks (5 counts) and keep the output in build/bench.txt
	@mkdir -p $(BUILD_DIR)
	set -o pipefail; $(GO) test -run '^$$' -bench . -benchmem -count 5 ./... | tee $(BUILD_DIR)/bench.txt

bench-c: build ctest-build ## Run the C API benchmarks (bench/capi): spawn, round trip, one way, native calls, NoCopy, load; medians of 5 runs
	@mkdir -p $(BUILD_DIR)/bench
	set -o pipefail; { $(CTEST_DIR)/capi_bench 5; $(CTEST_DIR)/capi_native_bench 5; $(CTEST_DIR)/capi_hostapi_bench 5; \
		for i in 1 2 3 4 5; do $(CTEST_DIR)/capi_load_bench $(abspath $(LIB)); done; } | tee $(BUILD_DIR)/bench/capi.txt

bench-load-floor: build ## The library-load floor: dlopen + first call of an empty Go library, one holding goja, and libjsworker (bench/loadfloor)
	bench/loadfloor/run.sh

bench-idle: build ## Many idle Node-style workers each answering a message (bench/node/idle_many.js; N=10000 by default)
	./$(CLI) run bench/node/idle_many.js $(or $(N),10000)

bench-compare: ## Run the core benchmarks and Node's worker_threads programs side by side (bench/compare.sh)
	bench/compare.sh

fuzz: fuzz-capi ## Run every Fuzz* target, then the C ABI harness, for FUZZTIME (default 60s) each
	@targets=$$(grep -rE --include='*_test.go' --exclude-dir=$(BUILD_DIR) --exclude-dir=.git \
		'^func Fuzz[A-Za-z0-9_]*\(' . | sed -E 's|^(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\(.*|\1 \2|'); \
	if [ -z "$$targets" ]; then echo "fuzz: no Fuzz* targets found"; exit 0; fi; \
	echo "$$targets" | while read -r dir name; do \
		echo "fuzz: $$name in $$dir for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) "$$dir" || exit 1; \
	done

# The C ABI harness (tests/fuzz/capi_fuzz.c) under libFuzzer and AddressSanitizer: clang and libclang-rt-*-dev.
FUZZ_DIR := $(BUILD_DIR)/fuzz
CLANG ?= clang

fuzz-capi: build ## Build the C ABI libFuzzer harness and run it for FUZZTIME (corpus: tests/fuzz/corpus)
	@mkdir -p $(FUZZ_DIR)/corpus
	$(CLANG) -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address -Iinclude tests/fuzz/capi_fuzz.c \
		-L$(BUILD_DIR) -ljsworker -Wl,-rpath,$(abspath $(BUILD_DIR)) -o $(FUZZ_DIR)/capi_fuzz
	@# Go allocates outside malloc and keeps it until exit: leak reports would be about the runtime, not the ABI.
	@# FUZZTIME is Go's duration syntax (60s, 5m, 1h): libFuzzer wants seconds.
	secs=$$(echo $(FUZZTIME) | sed -E 's/^([0-9]+)s$$/\1/; s/^([0-9]+)m$$/\1*60/; s/^([0-9]+)h$$/\1*3600/'); \
	ASAN_OPTIONS=detect_leaks=0 $(FUZZ_DIR)/capi_fuzz -max_total_time=$$(($$secs)) -timeout=30 -rss_limit_mb=4096 \
		$(FUZZ_DIR)/corpus tests/fuzz/corpus

memtest-full: build ctest-build ## Run the C value-lifetime test at full size: 1,000,000 round trips, flat memory
	$(CTEST_DIR)/memory_test_c 1000000

soak: ## An hour (SOAKTIME) of mixed load (tests/soak: churn, transfers, SharedArrayBuffers, sessions, module workers), then the Hammer tests at full size under -race
	$(GO) test -count=1 -run Soak -timeout 0 -v ./tests/soak -soak=$(SOAKTIME)
	$(GO) test -race -count=1 -run 'Hammer' -timeout 60m ./...

clean: ## Remove the build outputs (build/)
	rm -rf $(BUILD_DIR)

# What `make install` writes under $(DESTDIR): uninstall removes exactly these.
INSTALLED = $(LIBDIR)/libjsworker.so.$(VERSION) $(LIBDIR)/$(SONAME) $(LIBDIR)/libjsworker.so \
	$(INCLUDEDIR)/jsworker.h $(INCLUDEDIR)/jsworker.hpp $(PKGCONFIGDIR)/jsworker.pc \
	$(CMAKEDIR)/jsworkerConfig.cmake $(CMAKEDIR)/jsworkerConfigVersion.cmake $(BINDIR)/jsworker

install: build ## Install library (with SONAME), headers, jsworker.pc, CMake package, CLI: PREFIX=/usr/local [DESTDIR=]
	@test -n "$(VERSION)" || { echo "install: no JSWORKER_VERSION_STRING in include/jsworker.h" >&2; exit 1; }
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(CMAKEDIR)
	$(INSTALL) -m 0755 $(LIB) $(DESTDIR)$(LIBDIR)/libjsworker.so.$(VERSION)
	ln -sf libjsworker.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libjsworker.so
	$(INSTALL) -m 0644 include/jsworker.h include/jsworker.hpp $(DESTDIR)$(INCLUDEDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
		-e 's|@VERSION@|$(VERSION)|g' packaging/jsworker.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/jsworker.pc
	sed -e 's|@CMAKE_TO_LIBDIR@|'"$$(realpath -m --relative-to=$(CMAKEDIR) $(LIBDIR))"'|g' \
		-e 's|@CMAKE_TO_INCLUDEDIR@|'"$$(realpath -m --relative-to=$(CMAKEDIR) $(INCLUDEDIR))"'|g' \
		-e 's|@VERSION@|$(VERSION)|g' -e 's|@SONAME@|$(SONAME)|g' \
		packaging/jsworkerConfig.cmake.in > $(DESTDIR)$(CMAKEDIR)/jsworkerConfig.cmake
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@MAJOR@|$(SOMAJOR)|g' -e 's|@MINOR@|$(word 2,$(subst ., ,$(VERSION)))|g' \
		packaging/jsworkerConfigVersion.cmake.in > $(DESTDIR)$(CMAKEDIR)/jsworkerConfigVersion.cmake
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 $(CLI) $(DESTDIR)$(BINDIR)/jsworker

uninstall: ## Remove what `make install` installed (same PREFIX and DESTDIR)
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true

# The steps below are the parts of test and check; they can also be run on their own.

fmtcheck:
	@unformatted=$$($(GOFMT) -l $(GO_FILES) </dev/null); \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt: these files are not formatted (run gofmt -w on them):" >&2; \
		echo "$$unformatted" >&2; \
		exit 1; \
	fi

vet:
	$(GO) vet ./...

gotest:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1 || \
		echo "gotest: Chromium not found: the real-browser DevTools test (tests/cdp TestDevToolsFrontEnd) will be skipped (apt-get install chromium)"
	$(GO) test -race -short -count=1 ./...

ctest: build ctest-build
	cd $(CTEST_DIR) && $(CTEST) --output-on-failure

ctest-build: build
	$(CMAKE) -S . -B $(CTEST_DIR) -DJSWORKER_LIB=$(abspath $(LIB)) $(CMAKE_FLAGS)
	$(CMAKE) --build $(CTEST_DIR)

staticcheck:
	$(GO) run $(STATICCHECK) ./...

# The bindings' tests load $(LIB) (JSWORKER_LIBRARY / JSWORKER_LIB_DIR): the library of this build, not one installed.
python-test: build ## Python binding tests (bindings/python, unittest; stdlib only)
	cd bindings/python && JSWORKER_LIBRARY=$(abspath $(LIB)) $(PYTHON) -m unittest discover -s tests -t . -v

rust-test: build ## Rust binding tests (bindings/rust, cargo test --offline); skipped when cargo is not installed
	@if command -v $(CARGO) >/dev/null 2>&1; then \
		echo "cd bindings/rust && $(CARGO) test --offline"; \
		cd bindings/rust && JSWORKER_LIB_DIR=$(abspath $(BUILD_DIR)) CARGO_TARGET_DIR=$(abspath $(BUILD_DIR))/cargo \
			$(CARGO) test --offline; \
	else \
		echo "rust-test: skipped: cargo not found (install Rust from https://rustup.rs to run the Rust binding tests)"; \
	fi

package-test: build ## Install into a temporary prefix; build and run examples/cmake-consumer (find_package, pkg-config)
	MAKE="$(MAKE)" BUILD_DIR="$(BUILD_DIR)" CMAKE="$(CMAKE)" packaging/test-install.sh

tidycheck:
	$(GO) mod tidy
	@dirty=$$(git status --porcelain go.mod go.sum); \
	if [ -n "$$dirty" ]; then \
		echo "The following differences will fail CI until committed:" >&2; \
		git status --porcelain go.mod go.sum >&2; \
		git --no-pager diff go.mod go.sum >&2; \
		exit 1; \
	fi
