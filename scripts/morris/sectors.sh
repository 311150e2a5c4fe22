#!/bin/sh
# scripts/morris/sectors.sh: the sectors (tiers) of morris:n=N as
# games/morris.c lays them out, with what the tier solver would need to
# solve each one: positions (both players to move, before symmetry),
# records (2 bytes a position), the loopy pass's working set with `sym`
# (solvers/tier/loopy.c: 14 bytes a canonical position, 22 in a sector of
# more than 2^32 slots (64-bit indices), about 1/16 of the slots, counter,
# event levels, frontier and the events of one pass; and 3/8 of a byte a
# slot for the ranks and the reach rounds' bitmaps), and the tier file on disk (records +
# header; compression makes it several times smaller). Mid- and endgame sectors (no stones
# in hand, Gasser's databases) first, in order of size; then the totals of
# the placement sectors.
#
#   scripts/morris/sectors.sh 9        nine men's morris (the default)
#   scripts/morris/sectors.sh 6
#   scripts/morris/sectors.sh 9 need   what each mid- and endgame sector
#       needs at least in memory (the sector and its two child sectors'
#       records, bitmaps, the loopy pass: the window may hold more): with
#       the loopy pass's arrays indexed by slot (6 bytes a slot, the code
#       before 2026-11-23 15:00), by rank among the canonical positions
#       (10 bytes a position + 1/8 a slot, 14:30-17:30 UTC; 14 or 22 bytes
#       a position since, the events of a pass counted too), and with a
#       symmetry-reduced index (every term / 16; built at d988d86 as the
#       index by classes, games/morris.c: `tier:sector`'s own estimate,
#       scripts/morris/sector-fit.sh, has its figures). The 2^31-slot
#       limit of a loopy tier held for the first two (lifted 2026-11-23).
#       Arithmetic on the per-slot costs of solvers/tier/loopy.c, with
#       1/16 of the slots canonical (measured: 6.30% of 3-3, 6.27% of 4-4);
#       not measurements.
#
# Prints a Markdown table. Counts are exact (awk's doubles hold integers
# below 2^53; the largest here is below 2^35).
set -eu
. "$(dirname "$0")/common.sh"
n=${1:-9}
mode=${2:-sizes}
points=$(morris_points "$n")
awk -v n="$n" -v P="$points" -v mode="$mode" '
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
function sz(w, b) { return 2 * binom(P, w) * binom(P - w, b) }
function need() {
    print "| sector | slots | loopy pass by slot (before) | loopy pass by rank (now) | symmetry-reduced index (/16) |"
    print "|---|---|---|---|---|"
    k = 0
    for (w = 3; w <= n; w++) for (b = 3; b <= n; b++) { key[k] = sz(w, b); name[k] = w "-" b; k++ }
    for (i = 1; i < k; i++) for (j = i; j > 0 && key[j] < key[j - 1]; j--) {
        t = key[j]; key[j] = key[j - 1]; key[j - 1] = t
        t = name[j]; name[j] = name[j - 1]; name[j - 1] = t
    }
    for (i = 0; i < k; i++) {
        split(name[i], wb, "-")
        s = key[i]; c = sz(wb[1] - 1, wb[2]) + sz(wb[1], wb[2] - 1)
        today = 2 * (s + c) + (s + c) / 8 + 6 * s + 4 * s / 16
        pb = (s > 4294967296) ? 22 : 14
        a = 2 * (s + c) + (s + c) / 8 + pb * s / 16 + s / 8
        bb = (2 * (s + c) + (s + c) / 8 + pb * s) / 16
        over = s >= 2147483648 ? " (over 2^31 slots)" : ""
        printf "| %s | %.0f | %s%s | %s | %s |\n", name[i], s, size(today), over, size(a), size(bb)
    }
}
BEGIN {
    if (mode == "need") { need(); exit }
    print "| sector (w-b on the board) | positions | records | loopy pass working set (sym) | file (raw) |"
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
            size(((key[i] > 4294967296) ? 22 : 14) * key[i] / 16 + 3 * key[i] / 8), size(2 * key[i] + 4096)
    }
    for (wh = n; wh >= 0; wh--) for (bh = wh + 1; bh >= wh; bh--) {
        if (bh > n || (wh == 0 && bh == 0)) continue
        for (w = 0; w + wh <= n; w++) for (b = 0; b + bh <= n; b++)
            place += 2 * binom(P, w) * binom(P - w, b)
    }
    printf "\nmorris:n=%d: mid- and endgame sectors (both sides 3+ stones): %.0f positions; all\n", n, play
    printf "movement-phase boards: %.0f; placement sectors: %.0f; in all %.0f positions.\n", mid, place, mid + place
}'
