#!/bin/bash
# scripts/bench-run.sh [bin/bench flags...]: one benchmark run (make bench).
#
# Runs bin/bench over the matrix (SOLVERS and GAMES from the environment
# narrow it, as --solvers/--games), keeping:
#   RESULTS_DIR/bench.json   Google Benchmark JSON with the run's context
#   RESULTS_DIR/bench.csv    the same results as one flat row per benchmark
#   RESULTS_DIR/console.txt  Google Benchmark's console report
# where RESULTS_DIR defaults to results/<UTC time>/, with results/latest
# pointing at it; then renders the plots (plots/render.sh, into PLOTS_DIR,
# default plots/) and prints a summary table.
#
# The speed-up run (plot (e)): a second bin/bench run of the parallel
# solvers (SPEEDUP_SOLVERS, default tier) on one board that takes seconds
# (SPEEDUP_GAMES, default connect4:w=5,h=4, or connect4:w=5,h=5 with
# --full), at the thread counts of its matrix line, SPEEDUP_REPS times
# (default 3) with the repetitions interleaved at random, so that a change
# of load falls on every thread count alike; into RESULTS_DIR/speedup.json
# and speedup-console.txt. Two threads on a board solved in milliseconds
# measure only the overhead, hence a board of its own. It runs when the
# matrix is run whole (no SOLVERS or GAMES, no --games, --solvers, --matrix
# or --benchmark_filter), or when SPEEDUP_GAMES is given; SPEEDUP=0 skips
# it.
#
# Fails (exits with bin/bench's code) when bin/bench does: bad input stops
# it before anything runs; a benchmark that failed (a counted build that is
# missing, crashed, timed out or disagrees on the root) still leaves the
# results, plots and summary of the others, then the run fails. BENCH
# overrides the driver (tests run the build directory's).
#
# The whole run holds the bench lock (BENCH_LOCK, default
# /tmp/gamesman-bench.lock, as scripts/big-solve.sh and scripts/locked-run.sh
# take it), so that it neither disturbs nor is disturbed by another timed
# run; it waits for the lock when another holds it. NOLOCK=1 when the
# caller holds it already, or for a run whose times do not matter (tests).
set -euo pipefail
if [ "${NOLOCK:-0}" != 1 ]; then
    export NOLOCK=1
    exec flock "${BENCH_LOCK:-/tmp/gamesman-bench.lock}" "$0" "$@"
fi
cd "$(dirname "$0")/.."
stamp=$(date -u +%Y%m%dT%H%M%SZ)
dir=${RESULTS_DIR:-results/$stamp}
plots=${PLOTS_DIR:-plots}
mkdir -p "$dir"
args=("$@")
full=0
narrowed=0 # a selection or matrix of the caller's: no speed-up run by default
for a in "$@"; do
    case "$a" in
    --full) full=1 ;;
    --games | --solvers | --matrix | --benchmark_filter*) narrowed=1 ;;
    esac
done
if [ -n "${SOLVERS:-}" ] || [ -n "${GAMES:-}" ]; then narrowed=1; fi
speedup_games=${SPEEDUP_GAMES:-}
if [ -z "$speedup_games" ] && [ "$narrowed" = 0 ]; then
    speedup_games=$([ "$full" = 1 ] && echo 'connect4:w=5,h=5' || echo 'connect4:w=5,h=4')
fi
[ "${SPEEDUP:-1}" = 0 ] && speedup_games=""
[ -n "${SOLVERS:-}" ] && args+=(--solvers "$SOLVERS")
[ -n "${GAMES:-}" ] && args+=(--games "$GAMES")
commit=$(git describe --always --dirty 2>/dev/null || echo unknown)
echo "bench: results in $dir (commit $commit)"
"${BENCH:-bin/bench}" "${args[@]}" --context "commit=$commit" --context "run=$stamp" \
    --benchmark_out="$dir/bench.json" --benchmark_out_format=json \
    --benchmark_counters_tabular=false >"$dir/console.txt" 2> >(tee "$dir/stderr.txt" >&2) &
pid=$!
# Progress: one line per finished benchmark (name and time), while it runs.
tail -n +1 -f --pid=$pid "$dir/console.txt" 2>/dev/null |
    awk '/^[A-Za-z0-9_.-]+\// {printf "  %-52s %12s %s\n", $1, $2, $3; fflush()}' || true
status=0
wait $pid || status=$?
if [ ! -s "$dir/bench.json" ]; then
    echo "bench: bin/bench failed (exit $status) before writing results" >&2
    exit $((status == 0 ? 1 : status))
fi
rm -f "$dir/speedup.json" "$dir/speedup-console.txt"
if [ -n "$speedup_games" ]; then
    reps=${SPEEDUP_REPS:-3}
    echo "bench: the speed-up run: ${SPEEDUP_SOLVERS:-tier} on $speedup_games, $reps repetitions"
    sstatus=0
    "${BENCH:-bin/bench}" --games "$speedup_games" --solvers "${SPEEDUP_SOLVERS:-tier}" \
        --context "commit=$commit" --context "run=$stamp" --context "speedup_run=1" \
        --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
        --benchmark_out="$dir/speedup.json" --benchmark_out_format=json \
        --benchmark_counters_tabular=false >"$dir/speedup-console.txt" \
        2> >(tee -a "$dir/stderr.txt" >&2) || sstatus=$?
    awk '/^[A-Za-z0-9_.-]+\// && !/_(mean|median|stddev|cv) / {printf "  %-52s %12s %s\n", $1, $2, $3}' \
        "$dir/speedup-console.txt" || true
    if [ "$sstatus" -ne 0 ]; then
        echo "bench: the speed-up run failed (exit $sstatus)" >&2
        rm -f "$dir/speedup.json"
        [ "$status" -ne 0 ] || status=$sstatus
    fi
fi
# The rows, plots and summary of what ran; when bin/bench failed, a failure
# here does not hide its exit code.
if ! { jq -r --arg fmt csv -f scripts/bench-rows.jq "$dir/bench.json" >"$dir/bench.csv" &&
    { [ -n "${RESULTS_DIR:-}" ] || ln -sfn "$stamp" results/latest; } &&
    plots/render.sh "$dir" "$plots" && scripts/bench-summary.sh "$dir"; }; then
    echo "bench: the results in $dir could not be rendered" >&2
    [ "$status" -ne 0 ] || status=1
fi
if [ "$status" -ne 0 ]; then
    echo "bench: FAILED (exit $status): some benchmarks did not run; see $dir/stderr.txt" >&2
    exit "$status"
fi
