# The README's two commands: `make run` and `make test`. Both install what
# is missing (Debian packages), build, then run.
SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)
CARGO ?= cargo
BIN := target/release/cryptobench

.PHONY: run test deps test-deps build lint fmt clean-results

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

build: deps
	$(CARGO) build --release --locked -p cryptobench

# The main job: every suite, quick budget, report and summary.
run: build
	$(BIN) run --quick

# mold links the test binaries: when there were ~70, a clean test build
# took 8 min 47 s with it against 10 min 30 s with ld (user time 15.3 min
# against 18.4).
# Tests and clippy get the same flags, or clippy would build every C
# library again.
TEST_RUSTFLAGS := -C link-arg=-fuse-ld=mold $(RUSTFLAGS)

# Unit, integration and CLI tests, then format and lint checks. Incremental
# caches only cost time and disk on a one-off build.
# Libraries, binaries and integration tests, not the examples: they are
# study tools (docs name them), clippy --all-targets below checks that they
# build, and linking them in the test profile cost a clean build minutes.
# There are no doc tests.
test: test-deps
	# The MPI tests start this example under mpirun.
	RUSTFLAGS="$(TEST_RUSTFLAGS)" CARGO_INCREMENTAL=0 $(CARGO) build --profile test --locked -p cryptobench-mpi --example mpi_elgamal
	RUSTFLAGS="$(TEST_RUSTFLAGS)" CARGO_INCREMENTAL=0 $(CARGO) test --workspace --locked --lib --bins --tests
	$(CARGO) fmt --all --check
	# The test profile, so the C libraries built for the tests (aws-lc,
	# liboqs, libsodium) are reused instead of built a second time.
	RUSTFLAGS="$(TEST_RUSTFLAGS)" $(CARGO) clippy --workspace --all-targets --locked --profile test -- -D warnings

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

fmt:
	$(CARGO) fmt --all
