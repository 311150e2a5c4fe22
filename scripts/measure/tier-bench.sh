#!/bin/sh
# scripts/measure/tier-bench.sh [SOLVE]: the tier solver's Connect Four benchmarks
# (docs/connect-four.md, "The tier solver on Connect Four"). For 6x4 and 5x5, runs the tier
# solver on 1 and 2 threads and gps-cached (one thread, the depth-first
# reference) with a timing build (STATS=0), checks the value and position
# count against the published figures (Tromp; Boeck 2025: 6x4 lose with
# 94,910,577 positions, 5x5 tie with 69,763,700), and prints wall time,
# CPU seconds (user + system, /usr/bin/time: less sensitive than the wall
# time to other processes on a shared machine), jemalloc peak, peak RSS,
# the speed-up of 2 threads over 1 and the ratio of tier on one thread to
# gps-cached (wall times). SOLVE may be an older build, for a before/after
# comparison (docs/connect-four.md, "Tier solver speed"). Not a test: the machine is
# shared and timings are noisy.
set -eu
solve=${1:-build/timing/bin/solve}
if ! "$solve" --list | grep -q '^  connect4 '; then
    echo "tier-bench: no connect4 game registered in $solve" >&2
    exit 3
fi
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $solve"
echo '| variant | solver | threads | value | positions | wall s | CPU s | peak MiB | peak RSS MiB | speed-up | / gps-cached |'
echo '|---|---|---|---|---|---|---|---|---|---|---|'
cpu=$(mktemp)
trap 'rm -f "$cpu"' EXIT
for v in "w=6,h=4 lose 94910577" "w=5,h=5 tie 69763700"; do
    set -- $v
    t1=""
    tg=""
    for run in "gps-cached 1" "tier 1" "tier 2"; do
        set -- $v $run
        j=$(/usr/bin/time -o "$cpu" -f '%U %S' "$solve" "connect4:$1" --solver "$4" --threads "$5" --json)
        c=$(awk '{ printf "%.2f", $1 + $2 }' "$cpu")
        [ -z "$tg" ] && tg=$(echo "$j" | jq .wall_seconds)
        echo "$j" | jq -e --arg v "$2" --argjson n "$3" '.value == $v and .positions == $n' \
            >/dev/null || echo "tier-bench: connect4:$1 gave $(echo "$j" | jq -c '[.value, .positions]'), expected $2 $3" >&2
        t=$(echo "$j" | jq .wall_seconds)
        [ "$4" = tier ] && [ -z "$t1" ] && t1=$t
        echo "$j" | jq -r --arg t1 "${t1:-0}" --arg tg "$tg" --arg th "$5" --arg s "$4" --arg c "$c" '"| `\(.variant)` | \($s) | \($th) | \(.value) | \(.positions) | \(.wall_seconds * 100 | round / 100) | \($c) | \(.peak_bytes / 1048576 | round) | \(.peak_rss_bytes / 1048576 | round) | \(if $s == "tier" then (($t1 | tonumber) / .wall_seconds * 100 | round / 100 | tostring) else "-" end) | \(.wall_seconds / ($tg | tonumber) * 100 | round / 100) |"'
    done
done
