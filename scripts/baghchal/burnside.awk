# scripts/baghchal/burnside.awk: Bagh Chal's sliding-phase positions counted
# from the board's geometry alone (no game code): for each number c of
# goats captured, the boards of T tigers and G - c goats on the n x n
# points, and their classes under the square's symmetries that keep the
# lines, each with either player to move (the player is not moved by a
# symmetry, so both counts double).
#
#   awk -v n=5 -v tigers=4 -v goats=20 -v captures=5 -v diag=1 \
#       -f scripts/baghchal/burnside.awk
#
# prints a line per c = 0..captures: c, positions (2 * boards), classes
# (2 * Burnside's count), then the totals over c < captures (the positions
# where the game goes on; c = captures is over). With -v placement=1 it
# then prints the placement tiers' slots the same way (h goats in hand from
# goats down to 1, c captured up to min(captures, goats - h), each pair
# twice: goats or tigers to move, so the same 2 * boards and 2 * classes),
# as "placement SLOTS CLASSES", and the whole game's "all SLOTS CLASSES".
# With -v pergoats=1 it prints instead, for each number g of goats on the
# board from 0 to goats, "goats g BOARDS CLASSES" (one player to move, not
# doubled: a placement tier's count, scripts/baghchal/placement-table.sh)
# and nothing else. Symmetries: the 8 of the
# square on (row, column); with diagonals (lines through the points whose
# row + column is even) only those that keep the parity of row + column at
# every point (all 8 on an odd board, 4 on an even one). A symmetry fixes a
# board iff each of its cycles of points is all empty, all tigers or all
# goats, so the boards it fixes are the coefficient of x^T y^g in the
# product over its cycles of (1 + x^len + y^len); classes = the mean over
# the symmetries. Exact: awk's doubles hold integers below 2^53.
function binom(a, b,    r, i) {
    if (b < 0 || b > a) return 0
    r = 1
    for (i = 1; i <= b; i++) r = r * (a - b + i) / i
    return r
}
BEGIN {
    m = n - 1; np = n * n; ng = 0
    for (t = 0; t < 8; t++) {
        keeps = 1
        for (r = 0; r < n; r++) for (c = 0; c < n; c++) {
            if (t == 0) { r2 = r; c2 = c }
            if (t == 1) { r2 = c; c2 = m - r }
            if (t == 2) { r2 = m - r; c2 = m - c }
            if (t == 3) { r2 = m - c; c2 = r }
            if (t == 4) { r2 = r; c2 = m - c }
            if (t == 5) { r2 = m - r; c2 = c }
            if (t == 6) { r2 = c; c2 = r }
            if (t == 7) { r2 = m - c; c2 = m - r }
            if (diag && (r + c) % 2 != (r2 + c2) % 2) keeps = 0
            perm[ng, r * n + c] = r2 * n + c2
        }
        if (keeps) ng++
    }
    for (g = 0; g < ng; g++) {
        split("", seen); ncyc[g] = 0
        for (p = 0; p < np; p++) {
            if (p in seen) continue
            len = 0; q = p
            while (!(q in seen)) { seen[q] = 1; q = perm[g, q]; len++ }
            cyc[g, ncyc[g]++] = len
        }
    }
    if (pergoats) {
        for (gt = 0; gt <= goats; gt++)
            printf "goats %d %.0f %.0f\n", gt, binom(np, tigers) * binom(np - tigers, gt), classes(gt)
        exit
    }
    for (c = 0; c <= captures; c++) {
        gt = goats - c
        boards = binom(np, tigers) * binom(np - tigers, gt)
        cls = classes(gt)
        printf "%d %.0f %.0f\n", c, 2 * boards, 2 * cls
        if (c < captures) { tp += 2 * boards; tc += 2 * cls }
        ap += 2 * boards; ac += 2 * cls
    }
    printf "total(c<%d) %.0f %.0f\n", captures, tp, tc
    if (placement) {
        for (h = goats; h >= 1; h--) for (c = 0; c <= captures && c <= goats - h; c++) {
            gt = goats - h - c
            if (!(gt in memo_b)) {
                memo_b[gt] = binom(np, tigers) * binom(np - tigers, gt)
                memo_c[gt] = classes(gt)
            }
            pp += 2 * memo_b[gt]; pc += 2 * memo_c[gt]
        }
        printf "placement %.0f %.0f\n", pp, pc
        printf "all %.0f %.0f\n", pp + ap, pc + ac
    }
}
# Burnside's count of the boards of `tigers` tigers and gt goats.
function classes(gt,    sum, g, j, L, k, ab, a, b, f, h) {
        sum = 0
        for (g = 0; g < ng; g++) {
            # f[a, b]: ways to fill the cycles so far with a tigers, b goats
            split("", f); f[0, 0] = 1
            for (j = 0; j < ncyc[g]; j++) {
                L = cyc[g, j]
                split("", h)
                for (k in f) {
                    split(k, ab, SUBSEP); a = ab[1]; b = ab[2]
                    h[a, b] += f[k]
                    if (a + L <= tigers) h[a + L, b] += f[k]
                    if (b + L <= gt) h[a, b + L] += f[k]
                }
                split("", f); for (k in h) f[k] = h[k]
            }
            sum += ((tigers, gt) in f) ? f[tigers, gt] : 0
        }
        return sum / ng
}
