# Makefile: the one entry point.
#
#   make              bin/solve (release build: -O2, counters on, jemalloc)
#   make test         unit, property and cross-check tests, in the release
#                     build and in an ASan+UBSan build, then the CLI tests
#   make bench        the benchmark matrix (see README.md)
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
#   JOBS=N      parallel test binaries (default: number of cores)

CC := gcc
OPT ?= -O2
BUILD := build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

LIB_SRCS := $(sort $(wildcard core/*.c hash/*.c games/*.c solvers/*.c))
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
TEST_UTIL := tests/testutil.c
ALL_C := $(LIB_SRCS) $(TEST_SRCS) $(TEST_UTIL) $(wildcard cli/*.c) $(wildcard bench/*.c)
FORMAT_SRCS := $(sort $(ALL_C) $(wildcard core/*.h hash/*.h games/*.h solvers/*.h tests/*.h \
                 bench/*.h bench/*.cc))

WARN := -Wall -Wextra -Werror
BASE_CFLAGS := -std=c17 $(WARN) -I. -MMD -MP -fopenmp -D_POSIX_C_SOURCE=200809L
# Build variants: directory, compiler flags, link flags.
release_CFLAGS := $(BASE_CFLAGS) $(OPT) -g -DSTATS=1 -DHAVE_JEMALLOC
release_LIBS := -fopenmp -ljemalloc -lm
timing_CFLAGS := $(BASE_CFLAGS) $(OPT) -g -DSTATS=0 -DHAVE_JEMALLOC
timing_LIBS := -fopenmp -ljemalloc -lm
# jemalloc cannot be combined with ASan (both replace malloc).
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
asan_CFLAGS := $(BASE_CFLAGS) -O1 -g -DSTATS=1 $(SAN)
asan_LIBS := -fopenmp -lm $(SAN)

VARIANTS := release timing asan

.SECONDARY:
.PHONY: all test bench format format-check clean deps-build deps-test deps-format
.DEFAULT_GOAL := all

all: bin/solve

deps-build:
	@scripts/deps.sh build
deps-test:
	@scripts/deps.sh build test
deps-format:
	@scripts/deps.sh format

# $(call variant_rules,NAME): objects, library, bin/solve and tests of a variant.
define variant_rules
$(1)_OBJS := $$(patsubst %.c,$(BUILD)/$(1)/%.o,$(LIB_SRCS))
$(1)_TESTS := $$(patsubst tests/%.c,$(BUILD)/$(1)/tests/%,$(TEST_SRCS))

$(BUILD)/$(1)/%.o: %.c | deps-build
	@mkdir -p $$(dir $$@)
	$(CC) $$($(1)_CFLAGS) -c $$< -o $$@

$(BUILD)/$(1)/libgamesman.a: $$($(1)_OBJS)
	@rm -f $$@
	ar rcs $$@ $$^

$(BUILD)/$(1)/bin/solve: $(BUILD)/$(1)/cli/solve.o $(BUILD)/$(1)/libgamesman.a
	@mkdir -p $$(dir $$@)
	$(CC) $$^ $$($(1)_LIBS) -o $$@

$(BUILD)/$(1)/tests/test_%: $(BUILD)/$(1)/tests/test_%.o $(BUILD)/$(1)/tests/testutil.o \
		$(BUILD)/$(1)/libgamesman.a | deps-test
	$(CC) $$^ -lcmocka $$($(1)_LIBS) -o $$@

-include $$($(1)_OBJS:.o=.d) $(BUILD)/$(1)/cli/solve.d
endef
$(foreach v,$(VARIANTS),$(eval $(call variant_rules,$(v))))
-include $(patsubst tests/%.c,$(BUILD)/release/tests/%.d,$(TEST_SRCS) $(TEST_UTIL))
-include $(patsubst tests/%.c,$(BUILD)/asan/tests/%.d,$(TEST_SRCS) $(TEST_UTIL))

bin/solve: $(BUILD)/release/bin/solve
	@mkdir -p bin
	cp $< $@

# The release suite runs every test variant; the sanitizer build skips the
# variants a game marks heavy (TEST_HEAVY=0) to stay within the time budget.
test: deps-test $(release_TESTS) $(asan_TESTS) $(BUILD)/release/bin/solve $(BUILD)/asan/bin/solve
	@scripts/run-tests.sh $(JOBS) $(BUILD)

bench: bin/solve
	@scripts/deps.sh bench
	@scripts/bench-table.sh

format: deps-format
	clang-format -i $(FORMAT_SRCS)

format-check: deps-format
	@clang-format --dry-run --Werror $(FORMAT_SRCS) && echo "clang-format: all sources clean"

clean:
	rm -rf $(BUILD) bin
