#!/bin/sh
# scripts/run-tests.sh JOBS BUILD: runs every test step of make test, JOBS
# at a time, and sums their results. The steps: the cmocka test programs of
# the release and the ASan+UBSan builds, the CLI tests against both builds
# of bin/solve (tests/cli.sh), the benchmark driver's tests (tests/bench.sh,
# timing build with its counted twin), the documentation check
# (tests/docs.sh: links, commands, the README's tables), the fuzz targets
# (fuzz/run.sh test: regression inputs and a short run each) and the MPI
# tests (tests/mpi.sh: bin/solve-mpi on 1, 2 and 3 ranks against bin/solve).
#
# The steps are independent (each its own temporary files), so they run in
# a pool of JOBS (xargs -P), the longest first (the times of the last run,
# BUILD/test-times, or the defaults below on a fresh build): the pool ends
# when the longest chain does. make test runs each step as a target of its
# own instead (`run-tests.sh --step BUILD STEP`, as soon as what it tests is
# built, beside the builds still going), then `run-tests.sh --summary JOBS
# BUILD`, which only reads the logs.
#
# The output, once every step is done, in a fixed order: a line per test
# program (passed, failed, skipped, exit code, wall seconds), the last 40
# lines of a failed program's log, each script's lines but its `ok` ones,
# then
#   times: ...                                 (the slowest steps; every
#                                               step with TEST_TIMES=1)
#   MPI tests: N of them (1, 2 and 3 ranks)    (or "not run (...)")
#   tests: N passed, N failed, N skipped
# (the last line alone, in the form CI runners read; exit 0 when nothing
# failed).
#
# TEST_HEAVY (docs/testing.md): the release programs and the scripts get
# it as it is (unset: the default set; 1: the heavy cases too); the ASan
# programs always run with TEST_HEAVY=0 (the light set).
# Logs: BUILD/<variant>/tests/test_*.log for the programs,
# BUILD/test-logs/STEP.log for the scripts; beside each, .rc (exit code),
# .start (epoch seconds) and .time (wall, user and system seconds, by
# /usr/bin/time, of the step and its children).
set -u

# ------------------------------------------------------------- one step
# run-tests.sh --step BUILD STEP (make test's step targets, the pool's
# workers): runs STEP, its output in its log, its exit code in LOG.rc, its
# times in LOG.time; exits 0 (the summary counts the failures).
if [ "${1:-}" = --step ]; then
    build=$2
    step=$3
    case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac # the docs step runs elsewhere
    here=$(cd "$(dirname "$0")" && pwd)
    root=$(cd "$here/.." && pwd)
    case "$step" in
    release/* | asan/*) base="$build/$step" ;;
    *) base="$build/test-logs/$step" ;;
    esac
    log=$base.log
    mkdir -p "$(dirname "$base")"
    rm -f "$base.rc"
    date +%s >"$base.start"
    if [ -x /usr/bin/time ]; then
        timed() { /usr/bin/time -f '%e %U %S' -o "$base.time" "$@"; }
    else
        timed() {
            t0=$(date +%s)
            "$@"
            trc=$?
            echo "$(($(date +%s) - t0)) 0 0" >"$base.time"
            return "$trc"
        }
    fi
    case "$step" in
    asan/*)
        timed env TEST_HEAVY=0 ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$build/$step" >"$log" 2>&1
        ;;
    release/*) timed "$build/$step" >"$log" 2>&1 ;;
    cli-release | cli-asan)
        timed env ASAN_OPTIONS=detect_leaks=1 "$root/tests/cli.sh" \
            "$build/${step#cli-}/bin/solve" >"$log" 2>&1
        ;;
    bench) timed "$root/tests/bench.sh" "$build/timing/bin/bench" "$build/release/bin/bench" \
        >"$log" 2>&1 ;;
    # From the repository root: it reads README.md, docs/ and results/.
    docs) (cd "$root" && timed tests/docs.sh "$build/release/bin/solve") >"$log" 2>&1 ;;
    # Each target replays fuzz/regressions/ and runs a fixed number of
    # executions from its seeds, under ASan+UBSan.
    fuzz) timed "$root/fuzz/run.sh" test "$build" >"$log" 2>&1 ;;
    mpi) timed "$root/tests/mpi.sh" "$build/release/bin/solve" "$build/mpi/bin/solve" \
        >"$log" 2>&1 ;;
    esac
    echo "$?" >"$base.rc"
    exit 0
fi

# ------------------------------------------------------------ the suite
summary_only=no
if [ "${1:-}" = --summary ]; then
    summary_only=yes
    shift
fi
jobs=${1:-2}
build=${2:-build}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac # the docs step runs elsewhere
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build/test-logs"

programs=""
for v in release asan; do
    for t in "$build/$v"/tests/test_*; do
        case "$t" in *.o | *.d | *.log | *.rc | *.time | *.start) continue ;; esac
        # Only programs whose source still exists (not stale ones in build/).
        [ -f "$here/../tests/$(basename "$t").c" ] || continue
        [ -x "$t" ] && programs="$programs $v/tests/$(basename "$t")"
    done
done
scripts="cli-release cli-asan bench docs fuzz"
[ -x "$build/mpi/bin/solve" ] && scripts="$scripts mpi"

# Seconds a step took last time; on a fresh build, rough figures of the
# long steps (CPU seconds measured on 2026-11-26, docs/testing.md), 5 for
# the others.
default_secs() {
    case "$1" in
    asan/tests/test_known_baghchal) echo 75 ;; # 75.9 s of CPU on 2026-11-27
    mpi | docs | asan/tests/test_tier | cli-asan) echo 40 ;;
    asan/tests/test_sweep | asan/tests/test_store | asan/tests/test_solvers) echo 35 ;;
    asan/tests/test_symbolic | cli-release | release/tests/test_tier) echo 25 ;;
    fuzz | release/tests/test_symbolic | release/tests/test_store) echo 20 ;;
    *) echo 5 ;;
    esac
}
for s in $programs $scripts; do
    last=$(sed -n "s|^$s \([0-9]*\).*|\1|p" "$build/test-times" 2>/dev/null | tail -n 1)
    echo "${last:-$(default_secs "$s")} $s"
done | sort -k1,1nr -k2,2 | cut -d' ' -f2 >"$build/test-logs/order"
if [ "$summary_only" = no ]; then
    xargs -P "$jobs" -n 1 sh "$0" --step "$build" <"$build/test-logs/order"
fi

base_of() { # STEP: its files' name without .log, .rc, .time, .start
    case "$1" in
    release/* | asan/*) echo "$build/$1" ;;
    *) echo "$build/test-logs/$1" ;;
    esac
}
# The wall time from the first step's start to now.
first=$(for s in $programs $scripts; do cat "$(base_of "$s").start" 2>/dev/null; done | sort -n |
    head -n 1)
wall=$(($(date +%s) - ${first:-$(date +%s)}))

passed=0
failed=0
skipped=0
broken=""
for s in $programs $scripts; do
    # (the last line: /usr/bin/time writes "Command exited with ..." first)
    tail -n 1 "$(base_of "$s").time" 2>/dev/null |
        awk -v s="$s" '{ l = $0 } END { split(l, a, " "); print s, a[1] + 0, a[2] + 0, a[3] + 0 }'
done >"$build/test-times.new"
mv "$build/test-times.new" "$build/test-times"
secs() { # STEP: its wall seconds, rounded
    sed -n "s|^$1 \([0-9.]*\) .*|\1|p" "$build/test-times" | awk '{ printf "%d", $1 + 0.5 }'
}

for s in $programs; do
    t="$build/$s"
    rc=$(cat "$t.rc" 2>/dev/null || echo 99)
    # A program may run several cmocka groups (a summary each): their sum.
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' "$t.log" | awk '{ n += $1 } END { if (NR) print n }')
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$t.log" | awk '{ n += $1 } END { if (NR) print n }')
    k=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s), listed below:/\1/p' "$t.log" | awk '{ n += $1 } END { if (NR) print n }')
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    skipped=$((skipped + ${k:-0}))
    printf '%-8s %-32s passed %4s  failed %3s  skipped %3s  exit %s %5s s\n' "${s%%/*}" \
        "$(basename "$t")" "${p:-0}" "${f:-0}" "${k:-0}" "$rc" "$(secs "$s")"
    if [ "$rc" != 0 ]; then
        broken="$broken $t"
        [ -z "$f" ] && failed=$((failed + 1)) # crashed before its summary
    fi
done
for t in $broken; do
    echo "---- $t.log (last 40 lines)"
    tail -n 40 "$t.log"
done

# tally STEP PREFIX LABEL: a script's lines but its `ok` ones (LABEL in
# front), and its closing `PREFIX: N passed, N failed` into the sums; a
# script that ends without that line, or exits non-zero with no failure
# counted, counts one failure.
tally() {
    b=$(base_of "$1")
    rc=$(cat "$b.rc" 2>/dev/null || echo 99)
    grep -v '^ok ' "$b.log" 2>/dev/null | sed "s/^/$3 /"
    p=$(sed -n "s/^$2: \([0-9]*\) passed, \([0-9]*\) failed\$/\1/p" "$b.log" 2>/dev/null)
    f=$(sed -n "s/^$2: \([0-9]*\) passed, \([0-9]*\) failed\$/\2/p" "$b.log" 2>/dev/null)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-1}))
    [ "$rc" != 0 ] && [ "${f:-0}" = 0 ] && failed=$((failed + 1))
}
tally cli-release cli release
tally cli-asan cli asan
tally bench bench timing
tally docs docs docs
tally fuzz fuzz fuzz

mpi_note="MPI tests: not run (no $build/mpi/bin/solve)"
case " $scripts " in
*" mpi "*)
    if grep -q '^mpi: skipped' "$(base_of mpi).log"; then
        mpi_note="MPI tests: not run (no mpirun)"
        sed "s/^/mpi /" "$(base_of mpi).log"
    else
        tally mpi mpi mpi
        mpi_note="MPI tests: ${p:-0} of them (1, 2 and 3 ranks)"
    fi
    ;;
esac

# The times: every step with TEST_TIMES=1; always the slowest ones and
# the sums (CPU: user + system seconds of the step and its children).
if [ "${TEST_TIMES:-0}" = 1 ]; then
    sort -k2,2nr "$build/test-times" |
        awk '{ printf "time %-36s %7.1f s wall %7.1f s cpu\n", $1, $2, $3 + $4 }'
fi
sort -k2,2nr "$build/test-times" | awk -v wall="$wall" -v jobs="$jobs" '
    { cpu += $3 + $4; sum += $2 }
    NR <= 6 { sub(/\/tests\//, "/", $1); top = top sprintf("%s%s %d", NR > 1 ? ", " : "", $1, $2 + 0.5) }
    END { printf "times: %d steps in %d s (%d at a time; %d s one after the other), %d s of CPU; slowest (s): %s\n",
              NR, wall, jobs, sum + 0.5, cpu + 0.5, top }'
echo "$mpi_note"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
