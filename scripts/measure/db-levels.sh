#!/bin/sh
# scripts/measure/db-levels.sh [GAME] [DIR]: the zstd level and block size of the
# database on disk, measured (docs/database.md). For each
# (level, block bytes) pair, builds a timing bin/solve with
# -DDBSTORE_LEVEL and -DDBSTORE_BLOCK_BYTES (in build/dblevel-L-B/),
# solves GAME (default connect4:w=6,h=4) with `tier --db`, and prints one
# row: level, block bytes, database bytes, largest tier file bytes, seconds
# spent compressing and writing (db_write_seconds), solve wall seconds, and
# warm --query - queries per second on 10,000 random positions
# (scripts/measure/db-query-bench.sh). Scratch databases go under DIR (default
# /tmp/db-levels) and are removed.
set -eu
game=${1:-connect4:w=6,h=4}
dir=${2:-/tmp/db-levels}
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir"
echo "level block_bytes db_bytes largest_tier_bytes write_s solve_s queries_per_s"
for pair in 1:16384 3:16384 9:16384 1:4096 1:65536; do
    level=${pair%%:*}
    block=${pair#*:}
    build=build/dblevel-$level-$block
    make -s -C "$here" BUILD="$build" OPT="-O2 -DDBSTORE_LEVEL=$level -DDBSTORE_BLOCK_BYTES=$block" \
        "$build/timing/bin/solve" >/dev/null
    solve=$here/$build/timing/bin/solve
    db=$dir/db-$level-$block
    rm -rf "$db"
    j=$("$solve" "$game" --solver tier --threads 2 --db "$db" --json)
    bytes=$(du -sb "$db" | cut -f1)
    largest=$(ls -l "$db"/tier-*.gmdb | awk '{ if ($5 > m) m = $5 } END { print m }')
    q=$("$here/scripts/measure/db-query-bench.sh" "$game" "$db" 10000 "$solve" |
        sed -n 's/^warm_queries_per_second //p')
    echo "$level $block $bytes $largest $(echo "$j" | jq -r '.solver_stats.db_write_seconds') \
$(echo "$j" | jq -r '.wall_seconds') $q"
    rm -rf "$db"
done
