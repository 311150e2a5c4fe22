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
refuse "bad flag" 2 "" --matrix "$tmp/m.txt" --benchmark_nonsense=1
printf '#pending: tictactoe:sym\ntictactoe\n' >"$tmp/p.txt"
"$bench" --matrix "$tmp/p.txt" --benchmark_list_tests >/dev/null 2>"$tmp/err"
grep -q "game 'tictactoe' is registered now" "$tmp/err" && ok "pending note" ||
    bad "pending note: $(cat "$tmp/err")"

echo "bench: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
