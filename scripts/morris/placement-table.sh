#!/bin/sh
# scripts/morris/placement-table.sh: the Markdown table of nine men's
# morris's placement (opening) tiers solved by
# scripts/morris/placement-solve.sh, from its records (one JSON line a
# tier, default results/big/morris9s/placement.jsonl).
#
#   scripts/morris/placement-table.sh [RECORDS]
#
# One row per hand count (stones still in hand, white-black; the mover is
# black when black has one more), in the order they are solved (black's
# last placement first): tiers solved of the hand count's tiers, the
# positions of the solved tiers and of all its tiers, whether every solved
# tier holds as many positions as Burnside's count of its boards (one
# mover: classes(w, b) of scripts/morris/burnside.awk, computed from the
# board's geometry, no game code), the solved positions by value for the
# player to move, wall and CPU time summed over the runs, the largest peak
# (jemalloc) and RSS of a run, the tier files' bytes on disk, and the
# dates of the first and last run (UTC). Then one line of totals, and the
# value of the empty board when tier 0 is solved. Exits 1 when a solved
# tier's count differs from Burnside's (after printing the table, with
# the tiers named on stderr).
set -eu
records=${1:-results/big/morris9s/placement.jsonl}
[ -f "$records" ] || {
    echo "scripts/morris/placement-table.sh: no records $records" >&2
    exit 2
}
here=$(dirname "$0")
tsv=$(mktemp)
trap 'rm -f "$tsv"' EXIT
jq -r '[.tier, .hands, .board, .positions, .wins, .losses, .draws, .wall_seconds, .cpu_seconds,
        .peak_bytes, .peak_rss_bytes, .disk_bytes, .date, (.value // "-")] | @tsv' "$records" >"$tsv"
awk -F'\t' -f "$here/burnside.awk" -f "$here/../table-format.awk" -f /dev/stdin "$tsv" <<'EOF'
BEGIN {
    build(); cycles()
    n = 9; nl = 0
    # hand counts in solve order: (0, 1), (1, 1), (1, 2), ..., (9, 9)
    for (wh = 0; wh <= n; wh++) for (bh = wh; bh <= wh + 1; bh++) {
        if (bh > n || (wh == 0 && bh == 0)) continue
        key = wh "-" bh; order[nl++] = key
        for (wb = 0; wb + wh <= n; wb++) for (bb = 0; bb + bh <= n; bb++) {
            ntiers[key]++; all[key] += classes(wb, bb); alltiers++; allpos += classes(wb, bb)
        }
    }
}
{
    key = $2; split($3, bd, "-"); want = classes(bd[1], bd[2])
    if ($4 != want) { bad = bad " " $1 " (" $3 ": " $4 ", Burnside " want ")"; differ[key]++ }
    solved[key]++; pos[key] += $4; win[key] += $5; loss[key] += $6; draw[key] += $7
    wall[key] += $8; cpu[key] += $9; dsk[key] += $12
    if ($10 > peak[key]) peak[key] = $10
    if ($11 > rss[key]) rss[key] = $11
    if (!(key in first) || $13 < first[key]) first[key] = $13
    if ($13 > last[key]) last[key] = $13
    if ($1 == 0) value = $14
    tt++; tp += $4; tw += $8; tc += $9; td += $12
}
END {
    print "| in hand (white-black), to move | tiers solved | positions solved | of all its positions | = Burnside | wins | losses | draws | wall | CPU | peak (jemalloc) / RSS | disk | runs (UTC) |"
    print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for (i = 0; i < nl; i++) {
        key = order[i]; split(key, h, "-")
        mover = h[2] > h[1] ? "black" : "white"
        if (!(key in solved)) {
            printf "| %s, %s | 0 of %d | - | %s | - | - | - | - | - | - | - | - | - |\n", key, mover, ntiers[key], c(all[key])
            continue
        }
        printf "| %s, %s | %d of %d | %s | %s | %s | %s | %s | %s | %s s | %s s | %s / %s | %s | %s %s-%s |\n",
            key, mover, solved[key], ntiers[key], c(pos[key]), c(all[key]), (key in differ ? differ[key] " differ" : "yes"),
            c(win[key]), c(loss[key]), c(draw[key]), c(wall[key]), c(cpu[key]), mem(peak[key]), mem(rss[key]),
            disk(dsk[key]), substr(first[key], 1, 10), hm(first[key]), hm(last[key])
    }
    printf "\nPlacement tiers solved: %d of %d, %s of %s positions (Burnside), %s s of wall time and %s s of CPU, %s on disk.", tt, alltiers, c(tp), c(allpos), c(tw), c(tc), disk(td)
    if (value != "") printf " The empty board: %s.", value
    printf "\n"
    if (bad != "") { print "scripts/morris/placement-table.sh: counts differ from Burnside's:" bad > "/dev/stderr"; exit 1 }
}
EOF
