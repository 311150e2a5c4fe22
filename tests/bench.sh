#!/bin/bash
# tests/bench.sh BENCH COUNTED: end-to-end tests of the benchmark driver on a
# tiny matrix (tic-tac-toe), with BENCH the timing build of bin/bench and
# COUNTED its counted twin. Checks the Google Benchmark JSON (names, the
# counters against the published tic-tac-toe figures and the GPS story,
# context), the filter, the CSV rows, the plots, and that bad input is
# refused with a message and exit code 2 or 3. Ends with
# "bench: N passed, N failed".
set -u
bench=$1
counted=$2
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
check() { # NAME JQ_EXPR FILE
    if jq -e "$2" "$3" >/dev/null 2>&1; then ok "$1"; else bad "$1: $(head -c 600 "$3")"; fi
}
run() { "$bench" --counted "$counted" --count-min-time 0 --benchmark_min_time=0.01 "$@"; }

printf 'tictactoe series=t extra=dfs-depth:k=2\ntictactoe:sym series=t\n' >"$tmp/m.txt"

# The GPS story and published figures (tic-tac-toe: 5,478 positions, a tie in
# 9; Weiss: 549,946 minimax calls), from a JSON run of three solvers.
run --matrix "$tmp/m.txt" --solvers gps,dfs,minimax --games tictactoe:misere=0 \
    --benchmark_format=json >"$tmp/a.json" 2>"$tmp/a.err"
check "json names" '[.benchmarks[].name] == ["gps/tictactoe/manual_time",
    "dfs/tictactoe/manual_time", "minimax/tictactoe/manual_time"]' "$tmp/a.json"
check "positions and value" '.benchmarks[0:2] | all(.positions == 5478 and
    .label == "tie in 9; series=t")' "$tmp/a.json"
check "gps unhashes once, dfs in every call" '.benchmarks[0].unhash == 1 and
    .benchmarks[1].unhash >= .benchmarks[1].primitive + .benchmarks[1].generate_moves +
    .benchmarks[1].do_move and .benchmarks[0].hash == .benchmarks[1].hash' "$tmp/a.json"
check "minimax tree" '.benchmarks[2].calls == 549946 and (.benchmarks[2] | has("positions") | not)' \
    "$tmp/a.json"
check "rates and memory" '.benchmarks[0:2] | all(.positions_per_second > 0 and .peak_bytes >= 19683
    and .counted_seconds > 0 and .count_overhead > 0 and .real_time > 0)' "$tmp/a.json"
check "context" '.context | (.allocator | startswith("jemalloc")) and (.cflags | contains("STATS=0"))
    and (.compiler | startswith("gcc")) and (.machine | length > 0)' "$tmp/a.json"

# Google Benchmark's filter, and the depth-limited memo at k=2 (1 + 9 + 72
# boards within two plies: OEIS A008907).
run --matrix "$tmp/m.txt" --benchmark_filter='gps/|dfs-depth:k=2/' --benchmark_format=json \
    >"$tmp/f.json" 2>/dev/null
check "filter" '[.benchmarks[].name] == ["gps/tictactoe/manual_time",
    "dfs-depth:k=2/tictactoe/manual_time", "gps/tictactoe:sym/manual_time"]' "$tmp/f.json"
check "dfs-depth k=2 stores two plies" '.benchmarks[1].positions == 82' "$tmp/f.json"

# --games without options: every line of the game; with options: that variant.
"$bench" --matrix "$tmp/m.txt" --games tictactoe --solvers gps --benchmark_list_tests \
    >"$tmp/l.txt" 2>&1
[ "$(cat "$tmp/l.txt" | tr '\n' ' ')" = "gps/tictactoe/manual_time gps/tictactoe:sym/manual_time " ] &&
    ok "games by name" || bad "games by name: $(cat "$tmp/l.txt")"

# CSV rows and plots from a results directory.
mkdir -p "$tmp/r"
run --matrix "$tmp/m.txt" --solvers gps,dfs --benchmark_out="$tmp/r/bench.json" \
    --benchmark_out_format=json >/dev/null 2>&1
jq -r --arg fmt csv -f "$root/scripts/bench-rows.jq" "$tmp/r/bench.json" >"$tmp/r/bench.csv"
if [ "$(wc -l <"$tmp/r/bench.csv")" -eq 5 ] &&
    grep -q '^"gps/tictactoe:sym","gps","tictactoe","sym",' "$tmp/r/bench.csv"; then
    ok "csv rows"
else
    bad "csv rows: $(cat "$tmp/r/bench.csv")"
fi
if "$root/plots/render.sh" "$tmp/r" "$tmp/p" >/dev/null 2>"$tmp/p.err"; then
    n=0
    for f in calls time memory growth-t speedup; do
        head -c 8 "$tmp/p/$f.png" | grep -q PNG && grep -q '<svg' "$tmp/p/$f.svg" && n=$((n + 1))
    done
    [ "$n" -eq 5 ] && ok "plots" || bad "plots: $(ls "$tmp/p")"
else
    bad "plots: $(cat "$tmp/p.err")"
fi
# The speed-up plot (e) is drawn from boards that take seconds: a run of
# tier on tic-tac-toe (milliseconds) at 1 and 2 threads, twice each, draws
# nothing from bench.json ("no ... board of 1 s or more"), and the same run
# as the speed-up run (speedup.json) is drawn with its repetitions.
mkdir -p "$tmp/rs"
printf 'tictactoe threads=1,2\n' >"$tmp/ms.txt"
run --matrix "$tmp/ms.txt" --solvers tier --benchmark_repetitions=2 \
    --benchmark_out="$tmp/rs/bench.json" --benchmark_out_format=json >/dev/null 2>&1
"$root/plots/render.sh" "$tmp/rs" "$tmp/ps" >/dev/null 2>&1 &&
    grep -q "no parallel solver ran at several thread counts on a board of 1 s or more" \
        "$tmp/ps/speedup.svg" && ok "speed-up plot: no millisecond boards" ||
    bad "speed-up plot: millisecond boards drawn"
cp "$tmp/rs/bench.json" "$tmp/rs/speedup.json"
"$root/plots/render.sh" "$tmp/rs" "$tmp/ps" >/dev/null 2>&1 &&
    grep -q "tier tictactoe: .* s on 1 thread, 2 runs each (mean; bars: extremes)" "$tmp/ps/speedup.svg" &&
    ok "speed-up plot: the speed-up run, 2 repetitions" ||
    bad "speed-up plot: speedup.json not drawn: $(grep -o 'tier tictactoe[^<]*' "$tmp/ps/speedup.svg")"

# refuse NAME EXPECTED_CODE MESSAGE_PART ARGS...
refuse() {
    name=$1 code=$2 part=$3
    shift 3
    out=$("$bench" --counted "$counted" "$@" 2>"$tmp/err")
    rc=$?
    if [ "$rc" -eq "$code" ] && [ -z "$out" ] && grep -q "bench: .*$part" "$tmp/err"; then
        ok "$name"
    else
        bad "$name (exit $rc, stderr: $(cat "$tmp/err"))"
    fi
}
refuse "unknown solver" 2 "unknown solver 'nosuch'" --matrix "$tmp/m.txt" --solvers gps,nosuch
refuse "unknown game" 2 "unknown game 'nosuch'" --matrix "$tmp/m.txt" --games nosuch
refuse "bad game option" 2 "unknown option 'zz'" --matrix "$tmp/m.txt" --games tictactoe:zz=1
refuse "bad solver option" 2 "k" --matrix "$tmp/m.txt" --solvers dfs-depth:k=-1
refuse "missing matrix" 5 "cannot read the matrix" --matrix "$tmp/none.txt"
printf 'nosuchgame\n' >"$tmp/bad1.txt"
refuse "unknown game in matrix" 2 "bad1.txt:1: unknown game" --matrix "$tmp/bad1.txt"
printf 'tictactoe colour=red\n' >"$tmp/bad2.txt"
refuse "unknown field" 2 "unknown field 'colour=red'" --matrix "$tmp/bad2.txt"
printf 'tictactoe threads=0\n' >"$tmp/bad3.txt"
refuse "bad threads" 2 "threads=" --matrix "$tmp/bad3.txt"
printf 'tictactoe\ntictactoe\n' >"$tmp/bad4.txt"
refuse "duplicate line" 2 "twice" --matrix "$tmp/bad4.txt"
printf 'tictactoe\0 solvers=nosuch\n' >"$tmp/bad5.txt" # a NUL cut the line short, silently
refuse "NUL byte in the matrix" 2 "bad5.txt:1: a NUL byte in the line" --matrix "$tmp/bad5.txt"
refuse "bad flag" 2 "" --matrix "$tmp/m.txt" --benchmark_nonsense=1
printf '#pending: tictactoe:sym\ntictactoe\n' >"$tmp/p.txt"
"$bench" --matrix "$tmp/p.txt" --benchmark_list_tests >/dev/null 2>"$tmp/err"
grep -q "game 'tictactoe' is registered now" "$tmp/err" && ok "pending note" ||
    bad "pending note: $(cat "$tmp/err")"

# Hardening (issue 10, items 11-16). fails NAME CODE PART ARGS...: bin/bench
# runs, then exits CODE with PART on stderr (the failed rows are reported).
fails() {
    name=$1 code=$2 part=$3
    shift 3
    run --matrix "$tmp/m.txt" --games tictactoe:misere=0 "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq "$code" ] && grep -q "ERROR OCCURRED" "$tmp/out" &&
        grep -q -- "$part" "$tmp/out" && grep -q "^bench: .* benchmarks failed" "$tmp/err"; then
        ok "$name"
    else
        bad "$name (exit $rc, stdout: $(tail -n 2 "$tmp/out"), stderr: $(cat "$tmp/err"))"
    fi
}
# Item 11: a missing, crashing, lying or (item 13) hung counted build fails
# the run with the failure's code.
printf '#!/bin/sh\nkill -SEGV $$\n' >"$tmp/crash.sh"
printf '#!/bin/sh\necho "value 1"; echo "remoteness 3"; echo "seconds 0.1"\n' >"$tmp/liar.sh"
printf '#!/bin/sh\nexec sleep 60\n' >"$tmp/hang.sh"
chmod +x "$tmp/crash.sh" "$tmp/liar.sh" "$tmp/hang.sh"
fails "missing counted build" 5 "cannot run the counted build" --solvers gps --counted "$tmp/none"
fails "crashing counted build" 6 "killed by signal 11" --solvers gps --counted "$tmp/crash.sh"
fails "builds disagree" 6 "disagree on the root" --solvers gps --counted "$tmp/liar.sh"
fails "hung counted build" 7 "did not finish within 1 s (--count-timeout)" --solvers gps \
    --counted "$tmp/hang.sh" --count-timeout 1
refuse "count-timeout value" 2 "--count-timeout needs seconds" --matrix "$tmp/m.txt" \
    --count-timeout 0
# make bench (scripts/bench-run.sh) fails when a benchmark fails, and still
# keeps the results of the others: dfs's counted build fails here, gps's runs.
abs_bench=$(cd "$(dirname "$bench")" && pwd)/$(basename "$bench")
abs_counted=$(cd "$(dirname "$counted")" && pwd)/$(basename "$counted")
printf '#!/bin/sh\n[ "$2" = dfs ] && exit 3\nexec "%s" "$@"\n' "$abs_counted" >"$tmp/half.sh"
chmod +x "$tmp/half.sh"
NOLOCK=1 BENCH=$abs_bench RESULTS_DIR=$tmp/rr PLOTS_DIR=$tmp/pp "$root/scripts/bench-run.sh" \
    --counted "$tmp/half.sh" --matrix "$tmp/m.txt" --games tictactoe:misere=0 --solvers gps,dfs \
    --count-min-time 0 --benchmark_min_time=0.01 >"$tmp/run.out" 2>&1
rc=$?
[ "$rc" -eq 3 ] && grep -q '^"gps/tictactoe","gps"' "$tmp/rr/bench.csv" &&
    grep -q "bench: FAILED (exit 3)" "$tmp/run.out" && ok "make bench fails on a failed benchmark" ||
    bad "make bench with a failure: exit $rc, $(tail -n 3 "$tmp/run.out")"
# Item 12: Google Benchmark's flags are checked before it sees them.
refuse "repetitions -1" 2 "--benchmark_repetitions needs a whole number" --matrix "$tmp/m.txt" \
    --benchmark_repetitions=-1
refuse "repetitions 0" 2 "--benchmark_repetitions needs" --matrix "$tmp/m.txt" \
    --benchmark_repetitions=0
refuse "format xml" 2 "--benchmark_format takes console, json or csv, not 'xml'" \
    --matrix "$tmp/m.txt" --benchmark_format=xml
refuse "out format xml" 2 "--benchmark_out_format takes" --matrix "$tmp/m.txt" \
    --benchmark_out_format=xml
refuse "filter bad regex" 2 "--benchmark_filter '\[' is not a regular expression" \
    --matrix "$tmp/m.txt" --benchmark_filter='['
refuse "filter matches nothing" 2 "matches none of the" --matrix "$tmp/m.txt" \
    --benchmark_filter=nosuch
"$bench" --matrix "$tmp/m.txt" --benchmark_filter=-gps --benchmark_list_tests >"$tmp/l.txt" 2>&1
! grep -q "^gps/" "$tmp/l.txt" && grep -q "^dfs/" "$tmp/l.txt" && ok "negative filter" ||
    bad "negative filter: $(cat "$tmp/l.txt")"
# Item 14: a line over 4095 bytes is read whole: its comment stays a comment.
{
    printf 'tictactoe:misere %5000s' ''
    printf '# solvers=nosuch\n'
} >"$tmp/long.txt"
"$bench" --matrix "$tmp/long.txt" --solvers gps --benchmark_list_tests >"$tmp/l.txt" 2>&1 &&
    [ "$(cat "$tmp/l.txt")" = "gps/tictactoe:misere/manual_time" ] && ok "long matrix line" ||
    bad "long matrix line: $(cat "$tmp/l.txt")"
# Item 15: matrix mistakes are refused with the file and line.
printf 'tictactoe\ntictactoe:misere skip=nosuch\n' >"$tmp/bad5.txt"
refuse "unknown solver in skip" 2 "bad5.txt:2: skip=: unknown solver 'nosuch'" --matrix "$tmp/bad5.txt"
printf 'tictactoe threads=1,,2\n' >"$tmp/bad6.txt"
refuse "empty thread count" 2 "bad6.txt:1: threads=" --matrix "$tmp/bad6.txt"
printf 'tictactoe series=a series=b\n' >"$tmp/bad7.txt"
refuse "field twice" 2 "bad7.txt:1: field 'series=' given twice" --matrix "$tmp/bad7.txt"
printf 'tictactoe full full\n' >"$tmp/bad8.txt"
refuse "full twice" 2 "bad8.txt:1: field 'full' given twice" --matrix "$tmp/bad8.txt"
printf 'tictactoe extra=dfs,,gps\n' >"$tmp/bad9.txt"
refuse "empty solver in a line" 2 "bad9.txt:1: empty solver" --matrix "$tmp/bad9.txt"
refuse "empty solver in --solvers" 2 "--solvers: empty solver in 'dfs,,gps'" \
    --matrix "$tmp/m.txt" --solvers dfs,,gps
# Item 16: the duplicate check is a hash set: 20,001 lines (no timing
# assertion: it must simply finish and name the duplicate's line).
awk 'BEGIN { for (i = 1; i <= 10000; i++) { print "subtract:n=" i " solvers=dfs";
    print "subtract:n=" i ",moves=1-3 solvers=dfs" } print "subtract:n=7 solvers=dfs series=x" }' \
    >"$tmp/big.txt"
refuse "duplicate among 20,001 lines" 2 "big.txt:20001: benchmark dfs/subtract:n=7,moves=1-2 is in" \
    --matrix "$tmp/big.txt"
# Item 18: input quoted in a message is escaped (\xNN), one line.
"$bench" --matrix "$tmp/m.txt" "$(printf -- '--x\033[2J\ny')" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ! grep -q "$(printf '\033')" "$tmp/err" &&
    grep -qF "unknown option '--x\x1b[2J\x0ay'" "$tmp/err" && ok "escaped option" ||
    bad "escaped option: exit $rc, $(cat -v "$tmp/err")"
# make bench holds the bench lock while bin/bench runs (a fake driver looks
# whether it can take the lock itself); NOLOCK=1 leaves it free.
printf '#!/bin/sh\nif flock -n "$BENCH_LOCK" true; then echo free; else echo held; fi >"%s"\nexit 3\n' \
    "$tmp/lockstate" >"$tmp/lockcheck.sh"
chmod +x "$tmp/lockcheck.sh"
for nolock in 0 1; do
    NOLOCK=$nolock BENCH_LOCK=$tmp/bench.lock BENCH=$tmp/lockcheck.sh RESULTS_DIR=$tmp/rl \
        PLOTS_DIR=$tmp/pl "$root/scripts/bench-run.sh" --games tictactoe >/dev/null 2>&1
    want=held
    [ "$nolock" = 1 ] && want=free
    [ "$(cat "$tmp/lockstate" 2>/dev/null)" = "$want" ] && ok "bench lock with NOLOCK=$nolock: $want" ||
        bad "bench lock with NOLOCK=$nolock: $(cat "$tmp/lockstate" 2>/dev/null), expected $want"
    rm -f "$tmp/lockstate"
done

echo "bench: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
