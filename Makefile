# Makefile: the one entry point.
#
#   make              bin/solve (release build: -O2, counters on, jemalloc)
#   make test         unit, property and cross-check tests, in the release
#                     build and in an ASan+UBSan build, then the CLI tests,
#                     the documentation check (tests/docs.sh), the fuzz
#                     targets' regressions and short runs (fuzz/run.sh test)
#                     and the MPI tests (bin/solve-mpi on 1, 2 and 3 ranks)
#   make fuzz         the libFuzzer targets of every reader (fuzz/: record
#                     files, manifests, BDD plies, --query positions, the
#                     bench matrix; clang, ASan+UBSan), FUZZ_SECONDS each,
#                     seeded from small databases bin/solve writes
#                     (docs/testing.md, "Fuzzing")
#   make solve-mpi    bin/solve-mpi: the same sources built by mpicc with
#                     -DUSE_MPI (core/dist.h); build/mpitiming/bin/solve is
#                     its STATS=0 twin for timings
#   make bench        the benchmark matrix: results/<UTC time>/, plots/, a summary
#                     (docs/benchmarks.md); SOLVERS=... GAMES=... narrow it
#   make bench-full   the same with the large sizes (lines marked `full`)
#   make plots        re-render plots/ from results/latest
#   make bench-reference  the committed reference run: results/reference/ and
#                     plots/reference/ (run it on a quiet machine), then the
#                     README's results table (make readme-table)
#   make readme-table rewrite the README's "results at a glance" tables, the
#                     Morris tables of docs/loopy.md and the Bagh Chal tables
#                     of docs/games.md from results/reference/ and
#                     results/big/ (scripts/readme-table.sh)
#   make bench-compare A=results/X B=results/Y  Google Benchmark's compare.py
#   make format       clang-format every source in place
#   make format-check fail if any source is not clang-formatted
#   make clean
#
# Each target first makes sure the Debian packages it needs are installed
# (scripts/deps.sh: installs them as root, otherwise prints the command).
#
# Knobs:
#   STATS=1|0   counters on (default) or compiled out, for timing builds
#   OPT=-O2     optimization flags of the release and timing builds
#   JOBS=N      parallel build jobs and test steps (default: number of cores)
#   TEST_HEAVY=1  make test: the heavy cases too (docs/testing.md)
#   SOLVERS=    bench: solver list (gps,gps-cached or dfs-depth:k=3)
#   GAMES=      bench: game variants ('connect4:w=5,h=4 tictactoe')
#   BENCH_ARGS= bench: more flags for bin/bench (--benchmark_repetitions=3...)
#   FUZZ_SECONDS=60  fuzz: seconds per target (FUZZ_TARGETS='query matrix'
#               narrows the list)
#   SPEEDUP_GAMES=, SPEEDUP_SOLVERS=, SPEEDUP_REPS=, SPEEDUP=0: the speed-up
#               run of plot (e) (scripts/bench-run.sh; docs/benchmarks.md)

CC := gcc
CXX := g++
OPT ?= -O2
BUILD := build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Builds run one job a core unless the command line gives -j: make test
# builds six variants, about 13 minutes one file at a time on 2 cores.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(JOBS)
endif

LIB_SRCS := $(sort $(wildcard core/*.c hash/*.c games/*.c solvers/*.c solvers/tier/*.c))
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
TEST_UTIL := tests/testutil.c tests/testgraph.c
# bin/solve: the command line, its queries and its reports (cli/cli.h).
SOLVE_SRCS := cli/solve.c cli/query.c cli/report.c
ALL_C := $(LIB_SRCS) $(TEST_SRCS) $(TEST_UTIL) $(wildcard cli/*.c) $(wildcard bench/*.c) \
         $(wildcard fuzz/*.c)
FORMAT_SRCS := $(sort $(ALL_C) $(wildcard cli/*.h core/*.h hash/*.h games/*.h solvers/*.h solvers/tier/*.h tests/*.h \
                 bench/*.h bench/*.cc fuzz/*.h))

WARN := -Wall -Wextra -Werror
BASE_CFLAGS := -std=c17 $(WARN) -I. -MMD -MP -fopenmp -D_POSIX_C_SOURCE=200809L
# Build variants: directory, compiler flags, link flags.
release_CFLAGS := $(BASE_CFLAGS) $(OPT) -g -DSTATS=1 -DHAVE_JEMALLOC
release_LIBS := -fopenmp -ljemalloc -lbdd -lzstd -lm
timing_CFLAGS := $(BASE_CFLAGS) $(OPT) -g -DSTATS=0 -DHAVE_JEMALLOC
timing_LIBS := -fopenmp -ljemalloc -lbdd -lzstd -lm
# jemalloc cannot be combined with ASan (both replace malloc).
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
asan_CFLAGS := $(BASE_CFLAGS) -O1 -g -DSTATS=1 $(SAN)
asan_LIBS := -fopenmp -lbdd -lzstd -lm $(SAN)
# MPI variants (bin/solve-mpi): compiled and linked by mpicc (Open MPI).
mpi_CC := mpicc
mpi_CFLAGS := $(release_CFLAGS) -DUSE_MPI
mpi_LIBS := $(release_LIBS)
mpi_DEPS := deps-mpi
mpitiming_CC := mpicc
mpitiming_CFLAGS := $(timing_CFLAGS) -DUSE_MPI
mpitiming_LIBS := $(timing_LIBS)
mpitiming_DEPS := deps-mpi
# The fuzz targets' variant (make fuzz, fuzz/): clang, libFuzzer's coverage
# instrumentation and ASan+UBSan; OpenMP from LLVM's libomp.
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
fuzz_CC := clang
# clang warns about {NULL} ends of lists (designated initializers elsewhere),
# which gcc accepts: that one warning is off.
fuzz_CFLAGS := $(BASE_CFLAGS) -Wno-missing-field-initializers -O1 -g -DSTATS=1 $(FUZZ_SAN) \
               -fsanitize=fuzzer-no-link
fuzz_LIBS := -fopenmp -lbdd -lzstd -lm $(FUZZ_SAN) -fsanitize=fuzzer
fuzz_DEPS := deps-fuzz
# The fuzz targets (fuzz/*.c but util.c), defined here since make test's
# prerequisites below name them.
FUZZ_TARGETS := dbfile manifest symdb query matrix journal
FUZZ_BINS := $(patsubst %,$(BUILD)/fuzz/bin/fuzz-%,$(FUZZ_TARGETS))

VARIANTS := release timing asan mpi mpitiming fuzz
# The commit written into database manifests (core/dbstore.c: "build").
COMMIT := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
$(BUILD)/%/core/dbstore.o: EXTRA_CFLAGS = -DGAMESMAN_COMMIT='"$(COMMIT)"'
# ... compiled again when the commit changes (BUILD/commit holds it and is
# rewritten only then), so that a binary built after a commit does not
# write the one before.
$(shell mkdir -p $(BUILD) && { [ "$$(cat $(BUILD)/commit 2>/dev/null)" = "$(COMMIT)" ] || \
	echo "$(COMMIT)" >$(BUILD)/commit; })
$(foreach v,$(VARIANTS),$(BUILD)/$(v)/core/dbstore.o): $(BUILD)/commit

.SECONDARY:
.PHONY: all test bench bench-full bench-reference bench-compare plots format format-check clean \
	deps-build deps-test deps-format deps-bench deps-mpi deps-fuzz solve-mpi readme-table fuzz \
	fuzz-build
.DEFAULT_GOAL := all

all: bin/solve

deps-build:
	@scripts/deps.sh build
deps-test:
	@scripts/deps.sh build test bench mpi fuzz
deps-mpi:
	@scripts/deps.sh build mpi
deps-fuzz:
	@scripts/deps.sh build mpi fuzz
deps-format:
	@scripts/deps.sh format
deps-bench:
	@scripts/deps.sh build bench

# $(call variant_rules,NAME): objects, library, bin/solve and tests of a variant.
define variant_rules
$(1)_OBJS := $$(patsubst %.c,$(BUILD)/$(1)/%.o,$(LIB_SRCS))
$(1)_TESTS := $$(patsubst tests/%.c,$(BUILD)/$(1)/tests/%,$(TEST_SRCS))

$(BUILD)/$(1)/%.o: %.c | deps-build $$($(1)_DEPS)
	@mkdir -p $$(dir $$@)
	$$(or $$($(1)_CC),$(CC)) $$($(1)_CFLAGS) $$(EXTRA_CFLAGS) -c $$< -o $$@

$(BUILD)/$(1)/libgamesman.a: $$($(1)_OBJS)
	@rm -f $$@
	ar rcs $$@ $$^

$(BUILD)/$(1)/bin/solve: $$(patsubst %.c,$(BUILD)/$(1)/%.o,$(SOLVE_SRCS)) $(BUILD)/$(1)/libgamesman.a
	@mkdir -p $$(dir $$@)
	$$(or $$($(1)_CC),$(CC)) $$^ $$($(1)_LIBS) -o $$@

$(BUILD)/$(1)/tests/test_%: $(BUILD)/$(1)/tests/test_%.o \
		$(patsubst tests/%.c,$(BUILD)/$(1)/tests/%.o,$(TEST_UTIL)) $(BUILD)/$(1)/libgamesman.a | deps-test
	$(CC) $$^ -lcmocka $$($(1)_LIBS) -o $$@

-include $$($(1)_OBJS:.o=.d) $$(patsubst %.c,$(BUILD)/$(1)/%.d,$(SOLVE_SRCS))
endef
$(foreach v,$(VARIANTS),$(eval $(call variant_rules,$(v))))
-include $(patsubst tests/%.c,$(BUILD)/release/tests/%.d,$(TEST_SRCS) $(TEST_UTIL))
-include $(patsubst tests/%.c,$(BUILD)/asan/tests/%.d,$(TEST_SRCS) $(TEST_UTIL))

bin/solve: $(BUILD)/release/bin/solve
	@mkdir -p bin
	cp $< $@

solve-mpi: bin/solve-mpi bin/tier-plan
bin/solve-mpi: $(BUILD)/mpi/bin/solve
	@mkdir -p bin
	cp $< $@

# bin/tier-plan: a distributed solve's memory, disk, network and time from
# the tier layout alone (docs/scaling.md); no MPI needed.
$(BUILD)/release/bin/tier-plan: $(BUILD)/release/cli/tier_plan.o $(BUILD)/release/libgamesman.a
	@mkdir -p $(dir $@)
	$(CC) $^ $(release_LIBS) -o $@
bin/tier-plan: $(BUILD)/release/bin/tier-plan
	@mkdir -p bin
	cp $< $@
-include $(BUILD)/release/cli/tier_plan.d

# The release suite runs every test variant; the sanitizer build skips the
# variants a game marks heavy (TEST_HEAVY=0) to stay within the time budget;
# make test TEST_HEAVY=1 adds the heavy cases, the larger twins of cases
# the default set runs on smaller boards (docs/testing.md).
#
# Each test step (scripts/run-tests.sh: a test program of the release or
# the ASan build, or a script) is a target of its own, run as soon as what
# it tests is built, beside the builds still going (JOBS jobs in all), so
# the two cores stay busy; then the summary reads the logs. The steps
# listed first start first: the longest (docs/testing.md, the times), the
# ASan programs before the others.
TEST_NAMES := $(patsubst tests/%.c,%,$(TEST_SRCS))
TEST_LONGEST := test_symbolic test_tier test_sweep test_store test_solvers
TEST_ORDER := $(foreach t,$(TEST_LONGEST),$(filter $(t),$(TEST_NAMES))) \
	$(filter-out $(TEST_LONGEST),$(TEST_NAMES))
TEST_STEPS := $(patsubst %,test-step/asan/tests/%,$(TEST_ORDER)) test-step/mpi test-step/cli-asan \
	test-step/fuzz test-step/cli-release $(patsubst %,test-step/release/tests/%,$(TEST_ORDER)) \
	test-step/bench test-step/docs
RUN_STEP = @TEST_HEAVY='$(TEST_HEAVY)' scripts/run-tests.sh --step $(BUILD)
.PHONY: FORCE
FORCE:
test-step/asan/tests/%: $(BUILD)/asan/tests/% FORCE
	$(RUN_STEP) asan/tests/$*
test-step/release/tests/%: $(BUILD)/release/tests/% FORCE
	$(RUN_STEP) release/tests/$*
# test_bench runs the timing build's driver (tests/test_bench.c): its
# steps wait for it like the bench step.
test-step/asan/tests/test_bench test-step/release/tests/test_bench: $(BUILD)/timing/bin/bench
test-step/cli-%: $(BUILD)/%/bin/solve FORCE
	$(RUN_STEP) cli-$*
test-step/bench: $(BUILD)/timing/bin/bench $(BUILD)/release/bin/bench FORCE
	$(RUN_STEP) bench
test-step/docs: $(BUILD)/release/bin/solve FORCE
	$(RUN_STEP) docs
test-step/fuzz: $(FUZZ_BINS) $(BUILD)/fuzz/corpus/stamp FORCE
	$(RUN_STEP) fuzz
test-step/mpi: $(BUILD)/mpi/bin/solve $(BUILD)/release/bin/solve $(BUILD)/release/bin/tier-plan FORCE
	$(RUN_STEP) mpi

test: deps-test $(TEST_STEPS)
	@scripts/run-tests.sh --summary $(JOBS) $(BUILD)

# bin/bench: the Google Benchmark driver, built from the timing variant
# (STATS=0) for times; bin/bench-counted: the same driver from the release
# variant (STATS=1), which bin/bench runs once per pair for the counters.
CXXFLAGS := -std=c++17 $(WARN) -I. -MMD -MP $(OPT) -g
BENCH_VARIANTS := release timing
# bin/bench's C sources: every bench/*.c but db_recompress.c and
# blocks_reads.c, tools of their own (scripts/measure/db-zstd-params.sh and
# scripts/measure/blocks-read-sim.sh build them).
BENCH_SRCS := $(filter-out bench/db_recompress.c bench/blocks_reads.c,$(sort $(wildcard bench/*.c)))
define bench_rules
$(BUILD)/$(1)/bench/driver.o: EXTRA_CFLAGS = -DBENCH_CFLAGS='"$$($(1)_CFLAGS)"'
$(BUILD)/$(1)/bench/driver.o: | deps-bench
$(BUILD)/$(1)/bench/shim.o: bench/shim.cc | deps-bench
	@mkdir -p $$(dir $$@)
	$(CXX) $(CXXFLAGS) -c $$< -o $$@
$(BUILD)/$(1)/bin/bench: $(patsubst %.c,$(BUILD)/$(1)/%.o,$(BENCH_SRCS)) $(BUILD)/$(1)/bench/shim.o \
		$(BUILD)/$(1)/libgamesman.a
	@mkdir -p $$(dir $$@)
	$(CXX) $$^ -lbenchmark -lpthread $$($(1)_LIBS) -o $$@
-include $(patsubst %.c,$(BUILD)/$(1)/%.d,$(BENCH_SRCS)) $(BUILD)/$(1)/bench/shim.d
endef
$(foreach v,$(BENCH_VARIANTS),$(eval $(call bench_rules,$(v))))

bin/bench: $(BUILD)/timing/bin/bench
	@mkdir -p bin
	cp $< $@
bin/bench-counted: $(BUILD)/release/bin/bench
	@mkdir -p bin
	cp $< $@

BENCH_BINS := bin/bench bin/bench-counted
bench: deps-bench $(BENCH_BINS)
	@SOLVERS='$(SOLVERS)' GAMES='$(GAMES)' scripts/bench-run.sh $(BENCH_ARGS)
bench-full: deps-bench $(BENCH_BINS)
	@SOLVERS='$(SOLVERS)' GAMES='$(GAMES)' scripts/bench-run.sh --full $(BENCH_ARGS)
# The files scripts/readme-table.sh rewrites, in its argument order.
README_TABLE := scripts/readme-table.sh README.md results/reference results/big docs/loopy.md docs/games.md
bench-reference: deps-bench $(BENCH_BINS)
	@SOLVERS='$(SOLVERS)' GAMES='$(GAMES)' RESULTS_DIR=results/reference \
		PLOTS_DIR=plots/reference scripts/bench-run.sh --full $(BENCH_ARGS)
	@$(README_TABLE)
readme-table:
	@scripts/deps.sh docs
	@$(README_TABLE)
plots:
	@scripts/deps.sh bench
	@plots/render.sh results/latest plots
bench-compare:
	@scripts/deps.sh compare
	@test -n "$(A)" -a -n "$(B)" || { echo "usage: make bench-compare A=results/X B=results/Y" >&2; exit 2; }
	/usr/bin/python3 /usr/share/benchmark/compare.py benchmarks $(A)/bench.json $(B)/bench.json

# ------------------------------------------------------------------ fuzzing
# libFuzzer targets (fuzz/: one file per reader, its contract at its top),
# built by clang with ASan+UBSan (the fuzz variant above). Their seed
# corpora come from real small databases that bin/solve (and bin/solve-mpi
# on 2 ranks, when mpirun is there) writes under $(BUILD)/fuzz/
# (fuzz/corpus.sh), plus the committed seeds in fuzz/seeds/. make fuzz
# runs each target FUZZ_SECONDS; make test replays fuzz/regressions/ and
# runs each a fixed number of executions (fuzz/run.sh).
FUZZ_SECONDS ?= 60

$(BUILD)/fuzz/bin/fuzz-%: $(BUILD)/fuzz/fuzz/%.o $(BUILD)/fuzz/fuzz/util.o \
		$(BUILD)/fuzz/bench/matrix.o $(BUILD)/fuzz/libgamesman.a
	@mkdir -p $(dir $@)
	$(fuzz_CC) $^ $(fuzz_LIBS) -o $@
-include $(patsubst %,$(BUILD)/fuzz/fuzz/%.d,$(FUZZ_TARGETS) util) $(BUILD)/fuzz/bench/matrix.d

$(BUILD)/fuzz/corpus/stamp: fuzz/corpus.sh $(BUILD)/release/bin/solve $(BUILD)/mpi/bin/solve \
		$(BUILD)/fuzz/bin/fuzz-query
	@fuzz/corpus.sh $(BUILD)/release/bin/solve $(BUILD)/mpi/bin/solve $(BUILD)/fuzz

fuzz-build: deps-fuzz $(FUZZ_BINS) $(BUILD)/fuzz/corpus/stamp
fuzz: fuzz-build
	@FUZZ_TARGETS='$(FUZZ_TARGETS)' fuzz/run.sh long $(BUILD) $(FUZZ_SECONDS)

format: deps-format
	clang-format -i $(FORMAT_SRCS)

format-check: deps-format
	@clang-format --dry-run --Werror $(FORMAT_SRCS) && echo "clang-format: all sources clean"

clean:
	rm -rf $(BUILD) bin
