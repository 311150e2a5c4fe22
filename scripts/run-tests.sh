#!/bin/sh
# scripts/run-tests.sh JOBS BUILD: runs the cmocka test programs of the
# release and the ASan+UBSan builds (JOBS at a time), then the CLI tests
# against both builds of bin/solve and the benchmark driver's tests
# (tests/bench.sh, timing build with its counted twin), the documentation
# check (tests/docs.sh: links, commands, the README's tables), the fuzz
# targets (fuzz/run.sh test: regression inputs and a short run each), then the MPI tests
# (tests/mpi.sh: bin/solve-mpi on 1, 2 and 3 ranks against bin/solve), and
# prints two closing lines:
#   MPI tests: N of them (1, 2 and 3 ranks)   (or "not run (...)")
#   tests: N passed, N failed, N skipped
# (the last line alone, in the form CI runners read).
# Logs are kept in BUILD/<variant>/tests/*.log.
set -u
jobs=${1:-2}
build=${2:-build}
here=$(dirname "$0")

run_one() { # variant program
    log="$2.log"
    if [ "$1" = asan ]; then
        TEST_HEAVY=0 ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$2" >"$log" 2>&1
    else
        "$2" >"$log" 2>&1
    fi
    echo "$?" >"$2.rc"
}

programs=""
for v in release asan; do
    for t in "$build/$v"/tests/test_*; do
        case "$t" in *.o | *.d | *.log | *.rc) continue ;; esac
        # Only programs whose source still exists (not stale ones in build/).
        [ -f "$here/../tests/$(basename "$t").c" ] || continue
        [ -x "$t" ] && programs="$programs $v:$t"
    done
done

# A simple job pool: start up to $jobs programs, wait for the batch.
n=0
for vt in $programs; do
    run_one "${vt%%:*}" "${vt#*:}" &
    n=$((n + 1))
    if [ "$n" -ge "$jobs" ]; then
        wait
        n=0
    fi
done
wait

passed=0
failed=0
skipped=0
broken=""
for vt in $programs; do
    t=${vt#*:}
    rc=$(cat "$t.rc" 2>/dev/null || echo 99)
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' "$t.log" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$t.log" | tail -n 1)
    s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s), listed below:/\1/p' "$t.log" | tail -n 1)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
    skipped=$((skipped + ${s:-0}))
    printf '%-8s %-32s passed %4s  failed %3s  skipped %3s  exit %s\n' "${vt%%:*}" \
        "$(basename "$t")" "${p:-0}" "${f:-0}" "${s:-0}" "$rc"
    if [ "$rc" != 0 ]; then
        broken="$broken $t"
        [ -z "$f" ] && failed=$((failed + 1)) # crashed before its summary
    fi
done
for t in $broken; do
    echo "---- $t.log (last 40 lines)"
    tail -n 40 "$t.log"
done

for v in release asan; do
    out=$(ASAN_OPTIONS=detect_leaks=1 "$here/../tests/cli.sh" "$build/$v/bin/solve" 2>&1)
    rc=$?
    echo "$out" | grep -v '^ok ' | sed "s/^/$v /"
    p=$(echo "$out" | sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$out" | sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-1}))
    [ "$rc" != 0 ] && [ "${f:-0}" = 0 ] && failed=$((failed + 1))
done

out=$("$here/../tests/bench.sh" "$build/timing/bin/bench" "$build/release/bin/bench" 2>&1)
rc=$?
echo "$out" | grep -v '^ok ' | sed "s/^/timing /"
p=$(echo "$out" | sed -n 's/^bench: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
f=$(echo "$out" | sed -n 's/^bench: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-1}))
[ "$rc" != 0 ] && [ "${f:-0}" = 0 ] && failed=$((failed + 1))

# The documentation check (tests/docs.sh: links, bin/solve commands, the
# README's generated tables), from the repository root.
out=$(cd "$here/.." && tests/docs.sh "$build/release/bin/solve" 2>&1)
rc=$?
echo "$out" | grep -v '^ok ' | sed "s/^/docs /"
p=$(echo "$out" | sed -n 's/^docs: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
f=$(echo "$out" | sed -n 's/^docs: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-1}))
[ "$rc" != 0 ] && [ "${f:-0}" = 0 ] && failed=$((failed + 1))

# The fuzz targets (fuzz/run.sh test): each replays fuzz/regressions/ and
# runs a fixed number of executions from its seeds, under ASan+UBSan.
out=$("$here/../fuzz/run.sh" test "$build" 2>&1)
rc=$?
echo "$out" | grep -v '^ok ' | sed "s/^/fuzz /"
p=$(echo "$out" | sed -n 's/^fuzz: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
f=$(echo "$out" | sed -n 's/^fuzz: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-1}))
[ "$rc" != 0 ] && [ "${f:-0}" = 0 ] && failed=$((failed + 1))

mpi_note="MPI tests: not run (no $build/mpi/bin/solve)"
if [ -x "$build/mpi/bin/solve" ]; then
    out=$("$here/../tests/mpi.sh" "$build/release/bin/solve" "$build/mpi/bin/solve" 2>&1)
    rc=$?
    echo "$out" | grep -v '^ok ' | sed "s/^/mpi /"
    if echo "$out" | grep -q '^mpi: skipped'; then
        mpi_note="MPI tests: not run (no mpirun)"
    else
        p=$(echo "$out" | sed -n 's/^mpi: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
        f=$(echo "$out" | sed -n 's/^mpi: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
        passed=$((passed + ${p:-0}))
        failed=$((failed + ${f:-1}))
        [ "$rc" != 0 ] && [ "${f:-0}" = 0 ] && failed=$((failed + 1))
        mpi_note="MPI tests: ${p:-0} of them (1, 2 and 3 ranks)"
    fi
fi

echo "$mpi_note"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
