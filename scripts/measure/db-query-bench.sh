#!/bin/sh
# scripts/measure/db-query-bench.sh GAME DIR [N] [SOLVE] [THREADS]: query figures of a
# database on disk (docs/database.md).
#   cold   one query in a fresh process after dropping the page cache
#          (needs root: `sync; echo 3 > /proc/sys/vm/drop_caches`; skipped
#          otherwise), wall time of the whole process, COLD_RUNS times
#          (default 5; 0: none), the cache dropped before each; then the
#          peak RSS of one query;
#   warm   N random reachable positions (bin/solve --sample N --seed 1:
#          random play from the initial position) answered by one process
#          with --query - (each answer reads the position and every child),
#          twice; the second run's rate (per wall second and per CPU
#          second) and the process's peak RSS.
# SOLVE defaults to bin/solve; THREADS (5th argument), when given, is
# passed as --threads (the workers of --query -; default all cores).
# Prints one `key value` line per figure.
set -eu
game=$1
dir=$2
n=${3:-10000}
solve=${4:-bin/solve}
threads=${5:+--threads $5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$solve" "$game" --sample "$n" --seed 1 >"$tmp/pos"
first=$(head -n 1 "$tmp/pos")
if [ "${COLD_RUNS:-5}" -eq 0 ]; then
    echo "cold_query_seconds skipped (COLD_RUNS=0)"
elif [ "$(id -u)" -eq 0 ]; then
    # COLD_RUNS times (default 5), the page cache dropped before each, timed
    # to the millisecond by bash's `time` (no program of its own to load
    # cold; time(1)'s %e has 10 ms steps)
    runs=""
    for i in $(seq "${COLD_RUNS:-5}"); do
        sync
        echo 3 >/proc/sys/vm/drop_caches
        s=$(bash -c 'TIMEFORMAT=%3R; { time "$@" >/dev/null 2>&1; } 2>&1' _ \
            "$solve" "$game" --db "$dir" --query "$first" --json)
        runs="$runs $s"
    done
    echo "cold_query_seconds$runs"
    /usr/bin/time -f '%M' -o "$tmp/one" "$solve" "$game" --db "$dir" --query "$first" \
        --json >/dev/null
    echo "single_query_peak_rss_kib $(cat "$tmp/one")"
else
    echo "cold_query_seconds skipped (not root: cannot drop the page cache)"
fi
for run in 1 2; do
    # shellcheck disable=SC2086 # $threads: none, or --threads N
    /usr/bin/time -f '%e %M %U %S' -o "$tmp/warm" "$solve" "$game" --db "$dir" --query - \
        $threads <"$tmp/pos" >"$tmp/out"
done
answered=$(jq -s 'map(select(.value != null)) | length' "$tmp/out")
secs=$(cut -d' ' -f1 "$tmp/warm")
echo "warm_positions $answered of $n"
echo "warm_seconds $secs"
echo "warm_queries_per_second $(echo "$answered $secs" | awk '{ printf "%.0f", $1 / ($2 > 0 ? $2 : 0.01) }')"
echo "warm_peak_rss_kib $(cut -d' ' -f2 "$tmp/warm")"
# On a loaded machine the wall rate understates the process: its CPU time
# (user + system) gives the rate it would have on a core of its own.
cpu=$(awk '{ print $3 + $4 }' "$tmp/warm")
echo "warm_cpu_seconds $cpu"
echo "warm_queries_per_cpu_second $(echo "$answered $cpu" | awk '{ printf "%.0f", $1 / ($2 > 0 ? $2 : 0.01) }')"
