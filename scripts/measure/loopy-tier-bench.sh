#!/bin/sh
# scripts/measure/loopy-tier-bench.sh: the tier solver with loopy tiers
# (solvers/tier/loopy.c) against retro and retro-unmove on the loopy games
# that declare tiers.
#
#   scripts/measure/loopy-tier-bench.sh                      the default games, 5 runs each
#   GAMES="dodgem:n=4" REPS=3 scripts/measure/loopy-tier-bench.sh
#
# Times and peaks come from the timing build (STATS=0), the best of REPS
# runs; a peak is jemalloc's (value database included; the tier solver's
# sums its threads' peaks). The value, positions and draws are checked
# equal across the solvers (the script stops otherwise). Prints a Markdown
# table.
set -eu
here=$(dirname "$0")
cd "$here/../.."
make -s build/timing/bin/solve >/dev/null
games=${GAMES:-"dodgem achi morris:n=3 dodgem:n=4"}
reps=${REPS:-5}

# best GAME SOLVER THREADS: "seconds peak_bytes value positions draws" of the fastest run.
best() {
    i=0
    while [ "$i" -lt "$reps" ]; do
        build/timing/bin/solve "$1" --solver "$2" --threads "$3" --json |
            jq -r '"\(.wall_seconds) \(.peak_bytes) \(.value) \(.positions) \(.draws)"'
        i=$((i + 1))
    done | sort -g | head -n 1
}

size() {
    awk -v b="$1" 'BEGIN { if (b < 1048576) printf "%.1f KiB", b / 1024;
        else printf "%.1f MiB", b / 1048576 }'
}
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }

echo "| game | value | positions | draws | retro ms | retro peak | retro-unmove ms | retro-unmove peak | tier ms (1 thread) | tier ms (2 threads) | tier peak (2 threads) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for g in $games; do
    set -- $(best "$g" retro 1)
    r_s=$1 r_p=$2 value=$3 positions=$4 draws=$5
    set -- $(best "$g" retro-unmove 1)
    u_s=$1 u_p=$2
    [ "$3 $4 $5" = "$value $positions $draws" ] || { echo "retro-unmove differs on $g" >&2; exit 1; }
    set -- $(best "$g" tier 1)
    t1_s=$1
    [ "$3 $4 $5" = "$value $positions $draws" ] || { echo "tier differs on $g" >&2; exit 1; }
    set -- $(best "$g" tier 2)
    t2_s=$1 t2_p=$2
    [ "$3 $4 $5" = "$value $positions $draws" ] || { echo "tier (2 threads) differs on $g" >&2; exit 1; }
    echo "| \`$g\` | $value | $positions | $draws | $(ms "$r_s") | $(size "$r_p") | $(ms "$u_s") | $(size "$u_p") | $(ms "$t1_s") | $(ms "$t2_s") | $(size "$t2_p") |"
done
