#!/bin/sh
# scripts/measure/sym-huge-pages.sh BIN SPEC [NODES] [ROUNDS]: the symbolic
# solver with BuDDy's node table and caches on transparent huge pages
# (`thp=1`, the default) and without (`thp=0`), alternated ROUNDS times
# (default 2), win/lose/tie only (docs/symbolic.md, "Huge pages").
# NODES (default 0: the table grows as it needs) starts the node table at
# that size, so that a small board probes a table as large as a big solve's.
# Prints one line a run: thp, wall seconds, the peak resident set, the
# node table's size at its largest, whether the huge-page arena was used
# (1: jemalloc builds), the root's value, and the resident huge pages
# (AnonHugePages, kB) sampled once, SAMPLE_AT seconds into the run
# (default 10; `-` when the run ended first), and the allocator.
# Example: scripts/measure/sym-huge-pages.sh bin/solve connect4:w=5,h=5,tromp 100000000
set -eu
bin=$1
spec=$2
nodes=${3:-0}
rounds=${4:-2}
sample_at=${SAMPLE_AT:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
opt=remoteness=0
[ "$nodes" -gt 0 ] && opt="$opt,nodes=$nodes"
printf 'thp wall_s peak_rss_bytes node_table_peak huge_arena value anon_huge_kb allocator\n'
r=0
while [ "$r" -lt "$rounds" ]; do
    for thp in 1 0; do
        "$bin" "$spec" --solver "symbolic:$opt,thp=$thp" --json >"$tmp/out.json" 2>/dev/null &
        pid=$!
        sleep "$sample_at"
        huge=$(awk '/^AnonHugePages/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null || echo -)
        wait "$pid"
        jq -r --arg thp "$thp" --arg huge "${huge:--}" '[$thp, .wall_seconds, .peak_rss_bytes,
            .solver_stats.node_table_peak, .solver_stats.huge_arena, .value, $huge,
            (.allocator | split(" ")[0])] | join(" ")' \
            "$tmp/out.json"
    done
    r=$((r + 1))
done
