#!/bin/sh
# fuzz/run.sh MODE BUILD [SECONDS]: runs the fuzz targets (fuzz/*.c, built
# as BUILD/fuzz/bin/fuzz-TARGET) from the repository root.
#
#   test   (make test, scripts/run-tests.sh) each target replays its
#          regressions (fuzz/regressions/TARGET/*, every file once), then
#          runs a fixed number of executions (runs_of below, or FUZZ_RUNS;
#          -seed=1, so a run is repeatable up to the machine's timing)
#          from its seeds into a fresh scratch corpus; one line per target, then
#          `fuzz: N passed, N failed` (a target passes when neither step
#          reports a finding)
#   long   (make fuzz) each target for SECONDS (default 60), one after the
#          other, its corpus kept in BUILD/fuzz/work/TARGET between runs;
#          findings go to BUILD/fuzz/artifacts/ (reproduce one with
#          BUILD/fuzz/bin/fuzz-TARGET FILE); the last status line of each
#
# Seeds: BUILD/fuzz/corpus/TARGET (fuzz/corpus.sh: real small databases)
# and fuzz/seeds/TARGET (committed, hand-made); dictionary:
# fuzz/dict/TARGET.dict when there is one. The reference databases are
# BUILD/fuzz/dbs ($GAMESMAN_FUZZ_DBS). FUZZ_TARGETS narrows the list.
#
# Allocations over 100 MiB fail (ASan returns NULL, as malloc on a small
# machine): a reader must then refuse the file with ERR_MEMORY, which is
# not a finding. Without this, a size read from a file and allocated
# before it is checked (once fuzz/regressions/symdb/alloc-records-from-manifest)

# Every other sanitizer report, leak, timeout (-timeout=30) or abort is a
# finding.
set -u
mode=${1:-test}
build=${2:-build}
seconds=${3:-60}
targets=${FUZZ_TARGETS:-dbfile manifest symdb query matrix journal}
here=$(cd "$(dirname "$0")" && pwd)
GAMESMAN_FUZZ_DBS=$(cd "$build/fuzz/dbs" 2>/dev/null && pwd || echo "")
export GAMESMAN_FUZZ_DBS
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:max_allocation_size_mb=100:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

seeds_of() { # TARGET: the seed directories that exist
    for s in "$build/fuzz/corpus/$1" "$here/seeds/$1"; do
        [ -d "$s" ] && printf '%s ' "$s"
    done
}
runs_of() { # TARGET: executions in test mode: at most about 5 s of CPU each
    # under ASan (manifest: store_open and queries, about 500 a second;
    # journal: a verify of Connect Four 4x4 when the journal holds few of
    # its tiers, 0.09 s)
    if [ -n "${FUZZ_RUNS:-}" ]; then
        echo "$FUZZ_RUNS"
        return
    fi
    case "$1" in
    manifest) echo 2000 ;;
    journal) echo 300 ;;
    *) echo 5000 ;;
    esac
}
dict_of() {
    [ -f "$here/dict/$1.dict" ] && printf '%s' "-dict=$here/dict/$1.dict"
}

passed=0
failed=0
scratch=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-run.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$build/fuzz/artifacts"
for t in $targets; do
    bin="$build/fuzz/bin/fuzz-$t"
    if [ ! -x "$bin" ]; then
        echo "FAIL fuzz-$t: no $bin (make fuzz-build)"
        failed=$((failed + 1))
        continue
    fi
    log="$build/fuzz/$t.log"
    if [ "$mode" = long ]; then
        mkdir -p "$build/fuzz/work/$t"
        # shellcheck disable=SC2046
        "$bin" -max_total_time="$seconds" -timeout=30 -print_final_stats=1 \
            -artifact_prefix="$build/fuzz/artifacts/$t-" $(dict_of "$t") \
            "$build/fuzz/work/$t" $(seeds_of "$t") >"$log" 2>&1
        rc=$?
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
        line=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
        if [ "$rc" = 0 ]; then
            echo "ok fuzz-$t: ${execs:-?} executions in $seconds s; $line"
            passed=$((passed + 1))
        else
            echo "FAIL fuzz-$t (exit $rc): a finding in $build/fuzz/artifacts/; $log:"
            grep -E 'ERROR|SUMMARY|fuzz: |Test unit written' "$log" | head -n 8
            failed=$((failed + 1))
        fi
        continue
    fi
    # test: regressions, then a short run from the seeds.
    rc=0
    nreg=0
    if [ -d "$here/regressions/$t" ]; then
        set -- "$here/regressions/$t"/*
        if [ -e "$1" ]; then
            nreg=$#
            "$bin" -timeout=30 "$@" >"$log.regressions" 2>&1 || rc=$?
        fi
    fi
    if [ "$rc" != 0 ]; then
        echo "FAIL fuzz-$t: a regression input fails again ($log.regressions):"
        grep -E 'ERROR|SUMMARY|fuzz: |Running: ' "$log.regressions" | head -n 8
        failed=$((failed + 1))
        continue
    fi
    mkdir -p "$scratch/$t"
    start=$(date +%s)
    # shellcheck disable=SC2046
    runs=$(runs_of "$t")
    "$bin" -runs="$runs" -seed=1 -timeout=30 -artifact_prefix="$build/fuzz/artifacts/$t-" \
        $(dict_of "$t") "$scratch/$t" $(seeds_of "$t") >"$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    if [ "$rc" = 0 ]; then
        echo "ok fuzz-$t: $nreg regression inputs, $runs executions from the seeds in $secs s"
        passed=$((passed + 1))
    else
        echo "FAIL fuzz-$t (exit $rc): a finding in $build/fuzz/artifacts/; $log:"
        grep -E 'ERROR|SUMMARY|fuzz: |Test unit written' "$log" | head -n 8
        failed=$((failed + 1))
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
