#!/bin/sh
# scripts/sector-record.sh RECORDS ID FILE COMMAND...: one tier of a series
# solved by `tier:sector=T` (scripts/morris/placement-solve.sh,
# scripts/baghchal/placement-solve.sh), run and recorded. COMMAND (a
# `bin/solve ... --solver tier:sector=T --json --db DB` run) goes under the
# bench lock, timed by /usr/bin/time -v (scripts/locked-run.sh, its output
# in RECORDS without .jsonl, plus -run.{json,err,meta}); then one JSON line
# is appended to RECORDS: the object ID (the tier's number, name and what
# the series says of it), the positions the run solved by value
# (solver_stats.sector_*), the initial position's value and remoteness
# when ID's tier is 0 (both games' first tier), wall and CPU seconds (user
# + system), peaks (jemalloc and RSS), FILE's bytes (the tier's file in the
# database), the tiers loaded, the date, the load before and after, and the
# command. The run's own files are removed when it succeeded and kept when
# it failed (exit 1, naming them).
set -eu
[ $# -ge 4 ] || { echo "usage: scripts/sector-record.sh RECORDS ID FILE COMMAND..." >&2; exit 2; }
records=$1
id=$2
file=$3
shift 3
base="${records%.jsonl}-run"
"$(dirname "$0")/locked-run.sh" "$base" "$@" || {
    echo "$(basename "$0"): failed: $*; see $base.err" >&2
    exit 1
}
after=$(cut -d' ' -f1-3 /proc/loadavg)
date=$(sed -n 's/^date=//p' "$base.meta")
before=$(sed -n 's/^load_before=//p' "$base.meta")
cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$base.err")
jq -c --argjson id "$id" --argjson cpu "$cpu" --argjson disk "$(stat -c %s "$file")" \
    --arg date "$date" --arg before "$before" --arg after "$after" --arg cmd "$*" \
    '$id + {positions: .solver_stats.sector_positions, wins: .solver_stats.sector_wins,
            losses: .solver_stats.sector_losses, draws: .solver_stats.sector_draws}
     + (if $id.tier == 0 then {value, remoteness} else {} end)
     + {wall_seconds, cpu_seconds: $cpu, peak_bytes, peak_rss_bytes, disk_bytes: $disk,
        tiers_loaded: .solver_stats.tiers_loaded, date: $date, load_before: $before,
        load_after: $after, command: $cmd}' "$base.json" >>"$records"
tail -n 1 "$records"
rm -f "$base.json" "$base.err" "$base.meta"
