#!/bin/sh
# scripts/morris/sector-table.sh: the Markdown table of the sectors solved
# by scripts/morris/sector-solve.sh, from its records in DIR (default
# results/big/morris9): sector-W-B.json (the --json output), .txt (command,
# date, load before and after, disk bytes) and .err (/usr/bin/time -v).
#
#   scripts/morris/sector-table.sh [DIR] W-B ...
#
# One row per sector, in the order given: the sector's own positions and
# values (solver_stats.sector_*), the positions of the whole run (the
# sector and the tiers below it), tiers solved / loaded, wall, CPU (user +
# system) and the CPU share (CPU / wall: 2.0 is both cores), jemalloc's
# peak, the peak RSS, the tier file's bytes on disk, the date and the load
# averages (1 minute) before and after.
set -eu
dir=results/big/morris9
case "${1:-}" in
*/*)
    dir=$1
    shift
    ;;
esac
printf '| sector | positions (sector) | wins | losses | draws | positions (run) | tiers solved / loaded | wall | CPU (share) | peak (jemalloc) | peak RSS | disk | date (UTC), load before / after |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for s in "$@"; do
    b="$dir/sector-$s"
    [ -s "$b.json" ] || {
        echo "scripts/morris/sector-table.sh: no record $b.json" >&2
        exit 1
    }
    cpu=$(awk -F': ' '/User time|System time/ { t += $2 } END { printf "%.0f", t }' "$b.err")
    date=$(sed -n 's/^date=//p' "$b.txt" | sed 's/T/ /; s/:[0-9]*Z$//')
    lb=$(sed -n 's/^load_before=//p' "$b.txt" | cut -d' ' -f1)
    la=$(sed -n 's/^load_after=//p' "$b.txt" | cut -d' ' -f1)
    disk=$(sed -n 's/^disk_bytes=//p' "$b.txt")
    jq -r --arg s "$s" --arg cpu "$cpu" --arg date "$date" --arg lb "$lb" --arg la "$la" \
        --arg disk "$disk" '
        def c: tostring | until(test("^[0-9]{1,3}(,|$)"); sub("(?<a>[0-9])(?<b>[0-9]{3})(?<r>(,|$))"; "\(.a),\(.b)\(.r)"));
        def mib: if . >= 1073741824 then "\(. / 1073741824 * 100 | round / 100) GiB"
                 else "\(. / 1048576 * 10 | round / 10) MiB" end;
        .solver_stats as $x |
        "| \($s) | \($x.sector_positions | c) | \($x.sector_wins | c) | \($x.sector_losses | c) | \($x.sector_draws | c) | \(.positions | c) | \($x.tiers_solved) / \($x.tiers_loaded) | \(.wall_seconds | round) s | \($cpu) s (\(($cpu | tonumber) / .wall_seconds * 100 | round / 100)) | \(.peak_bytes | mib) | \(.peak_rss_bytes | mib) | \(($disk | tonumber) / 1024 | round) KiB | \($date), \($lb) / \($la) |"' \
        "$b.json"
done
