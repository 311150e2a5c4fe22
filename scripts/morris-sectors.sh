#!/bin/sh
# scripts/morris-sectors.sh: the sectors (tiers) of morris:n=N as
# games/morris.c lays them out, with what the tier solver would need to
# solve each one: positions (both players to move, before symmetry),
# records (2 bytes a position), the loopy pass's working set
# (solvers/tier_loopy.c: 12 bytes a position, 4 an event, bitmaps), and the
# tier file on disk (records + header). Mid- and endgame sectors (no stones
# in hand, Gasser's databases) first, in order of size; then the totals of
# the placement sectors.
#
#   scripts/morris-sectors.sh 9        nine men's morris (the default)
#   scripts/morris-sectors.sh 6
#
# Prints a Markdown table. Counts are exact (awk's doubles hold integers
# below 2^53; the largest here is below 2^35).
set -eu
n=${1:-9}
case "$n" in
3) points=9 ;;
6) points=16 ;;
9) points=24 ;;
*)
    echo "morris-sectors.sh: n must be 3, 6 or 9" >&2
    exit 2
    ;;
esac
awk -v n="$n" -v P="$points" '
function binom(a, b,    r, i) {
    if (b < 0 || b > a) return 0
    r = 1
    for (i = 1; i <= b; i++) r = r * (a - b + i) / i
    return r
}
function size(bytes) {
    if (bytes < 1024 * 1024) return sprintf("%.1f KiB", bytes / 1024)
    if (bytes < 1024 * 1024 * 1024) return sprintf("%.1f MiB", bytes / 1048576)
    return sprintf("%.1f GiB", bytes / 1073741824)
}
BEGIN {
    print "| sector (w-b on the board) | positions | records | loopy pass working set | file |"
    print "|---|---|---|---|---|"
    k = 0
    for (w = 0; w <= n; w++) for (b = 0; b <= n; b++) {
        pos = 2 * binom(P, w) * binom(P - w, b)
        key[k] = pos; name[k] = w "-" b; k++
        mid += pos
        if (w >= 3 && b >= 3) play += pos
    }
    # order by size (insertion sort: at most 100 sectors)
    for (i = 1; i < k; i++) for (j = i; j > 0 && key[j] < key[j - 1]; j--) {
        t = key[j]; key[j] = key[j - 1]; key[j - 1] = t
        t = name[j]; name[j] = name[j - 1]; name[j - 1] = t
    }
    for (i = 0; i < k; i++) {
        split(name[i], wb, "-")
        if (wb[1] < 3 || wb[2] < 3) continue  # a side with < 3 stones: lost, no moves
        printf "| %s | %.0f | %s | %s | %s |\n", name[i], key[i], size(2 * key[i]),
            size(14 * key[i] + key[i] / 4), size(2 * key[i] + 4096)
    }
    for (wh = n; wh >= 0; wh--) for (bh = wh + 1; bh >= wh; bh--) {
        if (bh > n || (wh == 0 && bh == 0)) continue
        for (w = 0; w + wh <= n; w++) for (b = 0; b + bh <= n; b++)
            place += 2 * binom(P, w) * binom(P - w, b)
    }
    printf "\nmorris:n=%d: mid- and endgame sectors (both sides 3+ stones): %.0f positions; all\n", n, play
    printf "movement-phase boards: %.0f; placement sectors: %.0f; in all %.0f positions.\n", mid, place, mid + place
}'
