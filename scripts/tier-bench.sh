#!/bin/sh
# scripts/tier-bench.sh [SOLVE]: the tier solver's Connect Four benchmarks
# (README.md, "Sweep and tier solvers"). For 6x4 and 5x5, runs the tier
# solver on 1 and 2 threads with a timing build (STATS=0), checks the value
# and position count against the published figures (Tromp; Boeck 2025:
# 6x4 lose with 94,910,577 positions, 5x5 tie with 69,763,700), and prints
# wall time, jemalloc peak, peak RSS and the speed-up of 2 threads over 1.
# Not a test: the machine is shared and timings are noisy.
set -eu
solve=${1:-build/timing/bin/solve}
if ! "$solve" --list | grep -q '^  connect4 '; then
    echo "tier-bench: no connect4 game registered in $solve" >&2
    exit 3
fi
echo '| variant | threads | value | positions | wall s | peak MiB | peak RSS MiB | speed-up |'
echo '|---|---|---|---|---|---|---|---|'
for v in "w=6,h=4 lose 94910577" "w=5,h=5 tie 69763700"; do
    set -- $v
    t1=""
    for th in 1 2; do
        j=$("$solve" "connect4:$1" --solver tier --threads "$th" --json)
        echo "$j" | jq -e --arg v "$2" --argjson n "$3" '.value == $v and .positions == $n' \
            >/dev/null || echo "tier-bench: connect4:$1 gave $(echo "$j" | jq -c '[.value, .positions]'), expected $2 $3" >&2
        t=$(echo "$j" | jq .wall_seconds)
        [ -z "$t1" ] && t1=$t
        echo "$j" | jq -r --arg t1 "$t1" --arg th "$th" '"| `\(.variant)` | \($th) | \(.value) | \(.positions) | \(.wall_seconds * 100 | round / 100) | \(.peak_bytes / 1048576 | round) | \(.peak_rss_bytes / 1048576 | round) | \(($t1 | tonumber) / .wall_seconds * 100 | round / 100) |"'
    done
done
