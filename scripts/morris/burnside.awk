# scripts/morris/burnside.awk: the 16 symmetries of the nine men's morris
# board and Burnside's count of its boards up to them, from the geometry
# alone (no game code); shared by results/big/morris9c/rank-index.sh and
# scripts/morris/placement-table.sh (awk -f scripts/morris/burnside.awk -f
# PROGRAM). Call build() and then cycles() once; classes(W, B) is then the
# number of boards with W white and B black stones up to the symmetries.
#
# The board: points 8r + k, ring r = 0..2 (0 outer), k = 0..7 clockwise from
# the top-left corner (games/morris.c's numbering). Its 16 symmetries: the
# dihedral group of the square on k (k -> k + 2j, k -> 2j - k, mod 8)
# times the exchange of the outer and inner rings (r -> 2 - r). A symmetry
# fixes a board with W white and B black stones iff each of its cycles is
# all empty, all white or all black, so the boards it fixes are the
# coefficient of x^W y^B in prod over cycles (1 + x^len + y^len); Burnside:
# classes = (1/16) sum over the symmetries of the boards each fixes. Exact
# (awk's doubles hold integers below 2^53).
# perm[g, p]: the 16 symmetries on the 24 points
function build(    g, rot, refl, sw, r, k, kk, rr) {
    g = 0
    for (sw = 0; sw < 2; sw++) for (refl = 0; refl < 2; refl++) for (rot = 0; rot < 4; rot++) {
        for (r = 0; r < 3; r++) for (k = 0; k < 8; k++) {
            kk = refl ? (2 * rot - k + 16) % 8 : (k + 2 * rot) % 8
            rr = sw ? 2 - r : r
            perm[g, 8 * r + k] = 8 * rr + kk
        }
        g++
    }
    ng = g
}
# cyc[g, j]: the lengths of the cycles of symmetry g, ncyc[g] of them
function cycles(    g, p, q, len, seen) {
    for (g = 0; g < ng; g++) {
        split("", seen); ncyc[g] = 0
        for (p = 0; p < 24; p++) {
            if (p in seen) continue
            len = 0; q = p
            while (!(q in seen)) { seen[q] = 1; q = perm[g, q]; len++ }
            cyc[g, ncyc[g]++] = len
        }
    }
}
# boards with w white and b black stones fixed by g: coefficient of x^w y^b
function fixed(g, w, b,    j, L, i, k, P, Q) {
    split("", P); P[0, 0] = 1
    for (j = 0; j < ncyc[g]; j++) {
        L = cyc[g, j]; split("", Q)
        for (i = 0; i <= w; i++) for (k = 0; k <= b; k++) {
            if (!((i, k) in P)) continue
            Q[i, k] += P[i, k]
            if (i + L <= w) Q[i + L, k] += P[i, k]
            if (k + L <= b) Q[i, k + L] += P[i, k]
        }
        split("", P); for (x in Q) P[x] = Q[x]
    }
    return ((w, b) in P) ? P[w, b] : 0
}
function classes(w, b,    g, s) { s = 0; for (g = 0; g < ng; g++) s += fixed(g, w, b); return s / ng }
