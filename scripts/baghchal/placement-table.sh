#!/bin/sh
# scripts/baghchal/placement-table.sh: the Markdown table of Bagh Chal's
# placement tiers solved by scripts/baghchal/placement-solve.sh, from its
# records (one JSON line a tier, default
# results/big/baghchal5/placement.jsonl).
#
#   scripts/baghchal/placement-table.sh [-n 5] [-g GOATS] [-k CAPTURES] [RECORDS]
#
# One row per number of goats in hand, in the order they are solved (1
# first): tiers solved of the hand's tiers (captures 0 to min(captures,
# goats - hand), each with the goats and with the tigers to move),
# positions solved and of all the hand's tiers, whether every solved tier
# holds as many positions as Burnside's count of its boards (4 tigers and
# goats - hand - captured goats, one player to move:
# scripts/baghchal/burnside.awk -v pergoats=1, from the board's geometry,
# no game code), the solved positions by value for the player to move,
# wall and CPU time summed over the runs, the largest peak (jemalloc) and
# RSS of a run, the tier files' bytes, and the dates of the first and last
# run (UTC). Then a line of totals, and the initial position's value when
# tier 0 is solved (with its remoteness unless a draw). Exits 1 when a
# solved tier's count differs from Burnside's (after the table, naming the
# tiers on stderr). Two kinds of tiers of the tigers to move hold no
# position, so Burnside's count for them is 0: after the last capture
# (the capture that made it ended the game), and with every goat in hand
# (the goats move first). Defaults:
# n=5 with its 20 goats, 5 captures and the diagonals (4: 12, 3, none; 3:
# 4, 1, the diagonals), games/baghchal.c's.
set -eu
n=5
goats=
captures=
while getopts n:g:k: opt; do
    case "$opt" in
    n) n=$OPTARG ;;
    g) goats=$OPTARG ;;
    k) captures=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case "$n" in
3) goats=${goats:-4} captures=${captures:-1} diag=1 ;;
4) goats=${goats:-12} captures=${captures:-3} diag=0 ;;
5) goats=${goats:-20} captures=${captures:-5} diag=1 ;;
*) echo "scripts/baghchal/placement-table.sh: n=$n: the board is 3, 4 or 5" >&2; exit 2 ;;
esac
records=${1:-results/big/baghchal5/placement.jsonl}
[ -f "$records" ] || { echo "scripts/baghchal/placement-table.sh: no records $records" >&2; exit 2; }
here=$(dirname "$0")
tsv=$(mktemp)
trap 'rm -f "$tsv"' EXIT
awk -v n="$n" -v tigers=4 -v goats="$goats" -v captures="$captures" -v diag="$diag" -v pergoats=1 \
    -f "$here/burnside.awk" | awk '{ print "B", $2, $4 }' >"$tsv"
jq -r '["R", .tier, .name, .hand, .captured, .side, .positions, .wins, .losses, .draws, .wall_seconds,
        .cpu_seconds, .peak_bytes, .peak_rss_bytes, .disk_bytes, .date, (.value // "-"),
        (.remoteness // "-")] | join(" ")' "$records" >>"$tsv"
awk -v goats="$goats" -v captures="$captures" -f "$here/../table-format.awk" -f /dev/stdin "$tsv" <<'EOF'
$1 == "B" { cls[$2] = $3; next }
{
    h = $4; want = $6 == "T" && ($5 == captures || h == goats) ? 0 : cls[goats - h - $5]
    if ($7 != want) { bad = bad " " $2 " (" $3 ": " $7 ", Burnside " want ")"; differ[h]++ }
    solved[h]++; pos[h] += $7; win[h] += $8; loss[h] += $9; draw[h] += $10
    wall[h] += $11; cpu[h] += $12; dsk[h] += $15
    if ($13 > peak[h]) peak[h] = $13
    if ($14 > rss[h]) rss[h] = $14
    if (!(h in first) || $16 < first[h]) first[h] = $16
    if ($16 > last[h]) last[h] = $16
    if ($2 == 0) { value = $17; rem = $18 }
    tt++; tp += $7; tw += $11; tc += $12; td += $15
    if ($13 > tpeak) tpeak = $13
    if ($14 > trss) trss = $14
}
END {
    print "| goats in hand | tiers solved | positions solved | of all its positions | = Burnside | wins | losses | draws | wall | CPU | peak (jemalloc) / RSS | disk | runs (UTC) |"
    print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    for (h = 1; h <= goats; h++) {
        nt = 0; all = 0
        for (k = 0; k <= captures && k <= goats - h; k++) {
            nt += 2; all += (k == captures || h == goats ? 1 : 2) * cls[goats - h - k]
        }
        alltiers += nt; allpos += all
        if (!(h in solved)) {
            printf "| %d | 0 of %d | - | %s | - | - | - | - | - | - | - | - | - |\n", h, nt, c(all)
            continue
        }
        printf "| %d | %d of %d | %s | %s | %s | %s | %s | %s | %s s | %s s | %s / %s | %s | %s %s-%s |\n",
            h, solved[h], nt, c(pos[h]), c(all), (h in differ ? differ[h] " differ" : "yes"),
            c(win[h]), c(loss[h]), c(draw[h]), c(wall[h]), c(cpu[h]), mem(peak[h]), mem(rss[h]),
            disk(dsk[h]), substr(first[h], 1, 10), hm(first[h]), hm(last[h])
    }
    printf "| all | %d of %d | %s | %s | %s | | | | %s s | %s s | %s / %s | %s | |\n",
        tt, alltiers, c(tp), c(allpos), (bad == "" ? "yes" : "no"), c(tw), c(tc), mem(tpeak), mem(trss), disk(td)
    # a draw (or tie) has no remoteness to give: the solvers write 0
    if (value == "draw" || value == "tie" || rem == "-") printf "\nThe initial position (tier 0): %s.\n", (value == "draw" ? "a draw" : value)
    else if (value != "") printf "\nThe initial position (tier 0): %s in %s.\n", value, rem
    if (bad != "") { print "scripts/baghchal/placement-table.sh: counts differ from Burnside:" bad > "/dev/stderr"; exit 1 }
}
EOF
