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
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=$(date -u +%Y%m%dT%H%M%SZ)
dir=${RESULTS_DIR:-results/$stamp}
plots=${PLOTS_DIR:-plots}
mkdir -p "$dir"
args=("$@")
[ -n "${SOLVERS:-}" ] && args+=(--solvers "$SOLVERS")
[ -n "${GAMES:-}" ] && args+=(--games "$GAMES")
commit=$(git describe --always --dirty 2>/dev/null || echo unknown)
echo "bench: results in $dir (commit $commit)"
bin/bench "${args[@]}" --context "commit=$commit" --context "run=$stamp" \
    --benchmark_out="$dir/bench.json" --benchmark_out_format=json \
    --benchmark_counters_tabular=false >"$dir/console.txt" 2> >(tee "$dir/stderr.txt" >&2) &
pid=$!
# Progress: one line per finished benchmark (name and time), while it runs.
tail -n +1 -f --pid=$pid "$dir/console.txt" 2>/dev/null |
    awk '/^[A-Za-z0-9_.-]+\// {printf "  %-52s %12s %s\n", $1, $2, $3; fflush()}' || true
wait $pid
jq -r --arg fmt csv -f scripts/bench-rows.jq "$dir/bench.json" >"$dir/bench.csv"
if [ -z "${RESULTS_DIR:-}" ]; then
    ln -sfn "$stamp" results/latest
fi
plots/render.sh "$dir" "$plots"
scripts/bench-summary.sh "$dir"
