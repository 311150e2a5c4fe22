#!/bin/sh
# results/big/morris9c/rank-index.sh: nine men's morris sectors under a
# symmetry-reduced ("canonical rank") index, the design of docs/loopy.md
# (NOT BUILT): counts by Burnside's lemma over the board's 16 symmetries,
# computed here from the board's geometry alone (no game code), and the
# memory a sector's run would take with that index.
#
#   results/big/morris9c/rank-index.sh [BUDGET_GIB]       (default 14)
#
# The board, its 16 symmetries and Burnside's count of its boards up to
# them: scripts/morris/burnside.awk.
#
# Columns, per mid- and endgame sector W-B (both sides to move counted):
#   slots          2 C(24,W) C(24-W,B), today's index (a slot per board);
#   canonical      2 x the classes of boards: the positions `tier:sector`
#                  solves with sym (its sector_positions, measured, must be
#                  equal: a check of both);
#   rank index     the design's index: the larger colour's stone set (M
#                  stones) by its class under the 16 symmetries, the other
#                  colour's m stones by their combinatorial rank among the
#                  24 - M free points, and the mover: 2 x classes(M) x
#                  C(24-M, m) slots; more than the canonical positions by
#                  the boards whose larger set has a nontrivial stabilizer
#                  (their other set is then canonicalized by the stabilizer
#                  only, so some slots are duplicates: no position);
#   run memory     what solving the sector would hold with that index: the
#                  records (2 bytes a slot) of the sector and of its child
#                  sectors W-1,B and W,B-1 that have 3 or more stones a side
#                  (the sectors with 2 need no records: the side to move
#                  there has lost); a bitmap of the duplicate slots (1/8
#                  byte a slot, of the sector only); the loopy pass with
#                  the slot as its index (no ranks): a 1-byte counter
#                  (in-tier children of a movement sector: at most 3 x 21
#                  flights, or 9 x 4 slides, + 1), 2 bytes of win/loss
#                  event level, 4 of frontier and 4 of events (at most one
#                  a position), no tie array (morris has no ties);
#                  11 1/8 bytes a slot in all, 4-byte indices (every rank
#                  index is below 2^32).
# Arithmetic, not measurements; exact counts (awk's doubles hold integers
# below 2^53).
set -eu
budget=${1:-14}
awk -v B="$budget" -f "$(dirname "$0")/../../../scripts/morris/burnside.awk" -f /dev/stdin <<'EOF'
function binom(a, k,    r, i) { if (k < 0 || k > a) return 0; r = 1; for (i = 1; i <= k; i++) r = r * (a - k + i) / i; return r }
function size(x) { return x >= 2^30 ? sprintf("%.1f GiB", x / 2^30) : sprintf("%.1f MiB", x / 2^20) }
function rankidx(w, b,    M, m) { if (w < 3 || b < 3) return 0; M = w > b ? w : b; m = w + b - M; return 2 * classes(M, 0) * binom(24 - M, m) }
BEGIN {
    build(); cycles()
    printf "| sector | slots | canonical positions | rank index (slots) | index / canonical | records (sector + children) | run memory | fits %s GiB |\n", B
    print "|---|---|---|---|---|---|---|---|"
    k = 0
    for (w = 3; w <= 9; w++) for (b = 3; b <= 9; b++) if (w <= b) { key[k] = binom(24, w) * binom(24 - w, b); name[k] = w "-" b; k++ }
    for (i = 1; i < k; i++) for (j = i; j > 0 && key[j] < key[j - 1]; j--) {
        t = key[j]; key[j] = key[j - 1]; key[j - 1] = t
        t = name[j]; name[j] = name[j - 1]; name[j - 1] = t
    }
    for (i = 0; i < k; i++) {
        split(name[i], wb, "-"); w = wb[1]; b = wb[2]
        slots = 2 * binom(24, w) * binom(24 - w, b)
        canon = 2 * classes(w, b)
        idx = rankidx(w, b)
        rec = 2 * (idx + rankidx(w - 1, b) + rankidx(w, b - 1))
        run = rec + idx / 8 + 11 * idx
        nm = w == b ? name[i] : name[i] ", " b "-" w
        printf "| %s | %.0f | %.0f | %.0f | %.3f | %s | %s | %s |\n", nm, slots, canon, idx, idx / canon,
            size(rec), size(run), (run <= B * 2^30 ? "yes" : "no")
        tot_s += slots * (w == b ? 1 : 2); tot_c += canon * (w == b ? 1 : 2); tot_i += idx * (w == b ? 1 : 2)
    }
    printf "\nAll mid- and endgame sectors (3-3 to 9-9): %.0f slots, %.0f canonical positions, %.0f rank-index slots.\n", tot_s, tot_c, tot_i
}
EOF
