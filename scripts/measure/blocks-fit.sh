#!/bin/sh
# scripts/measure/blocks-fit.sh PROGRESS TIERS READS MOVES THREADS: the
# costs of tier:blocks' two passes, fitted on one run, the figures of
# bin/tier-plan's blocks model (solvers/tier/plan.h; docs/scaling.md).
#   PROGRESS  the run's per-tier progress (the last `reach tier T` and
#             `solve tier T` line of each tier: its positions and the
#             elapsed seconds when it ended), e.g.
#             results/big/connect4-5x7-blocks/progress-per-tier.txt
#   TIERS     per tier "T PARTS RECORDS FILE_BLOCKS BYTES" (lines starting
#             with # skipped), e.g. results/big/connect4-5x7-blocks/tiers.txt
#   READS     the run's blocks_child_blocks_read (its JSON)
#   MOVES     moves a position (Connect Four: the columns)
#   THREADS   the run's threads
# Each tier's seconds are its last progress line's elapsed less the tier
# before's (forward in increasing tier order, backward in decreasing).
# Least squares, two unknowns each:
#   forward_t  = (f_pos MOVES R_t + f_slot s_t) / THREADS
#   backward_t = (b_pos MOVES R_t + b_read reads_t) / THREADS
# where reads_t = phi MOVES (file blocks of tier t + 1), phi = READS over
# MOVES times the child file blocks of every tier. Prints f_pos, f_slot,
# b_pos, b_read (per thread) and phi, and the fit's total against the run's.
# Example (the 5x7 run):
#   scripts/measure/blocks-fit.sh results/big/connect4-5x7-blocks/progress-per-tier.txt \
#       results/big/connect4-5x7-blocks/tiers.txt 163584777 5 2
set -eu
[ $# -eq 5 ] && [ -f "$1" ] && [ -f "$2" ] || {
    echo "usage: scripts/measure/blocks-fit.sh PROGRESS TIERS READS MOVES THREADS" >&2
    exit 2
}
{
    sed -n 's/^tier: \(reach\|solve\) tier \([0-9]*\) ([^)]*): \([0-9]*\)\/[0-9]* positions.* \([0-9][0-9]*\) s elapsed.*/\1 \2 \3 \4/p' "$1"
    grep -v '^#' "$2" | sed 's/^/T /'
} | awk -v reads="$3" -v m="$4" -v thr="$5" '
function solve2(sxx, sxy, syy, sxz, syz, which,   det) {
    det = sxx * syy - sxy * sxy
    return which == 1 ? (sxz * syy - syz * sxy) / det : (sxx * syz - sxy * sxz) / det
}
$1 == "reach" { R[$2] = $3; fe[$2] = $4; if ($2 > n) n = $2 }
$1 == "solve" { be[$2] = $4 }
$1 == "T" { s[$2] = $4; fb[$2] = $5 }
END {
    for (t = 0; t <= n; t++) cb[t] = (t < n) ? fb[t + 1] : 0
    tot = 0; for (t = 0; t <= n; t++) tot += cb[t]
    phi = reads / (m * tot)
    prev = 0
    for (t = 0; t <= n; t++) { fw[t] = fe[t] - prev; prev = fe[t] }
    for (t = n; t >= 0; t--) { bw[t] = be[t] - prev; prev = be[t] }
    for (t = 0; t <= n; t++) {
        x = m * R[t]; y = s[t]; z = fw[t]
        a1 += x * x; a2 += x * y; a3 += y * y; a4 += x * z; a5 += y * z
        y = phi * m * cb[t]; z = bw[t]
        b1 += x * x; b2 += x * y; b3 += y * y; b4 += x * z; b5 += y * z
        F += fw[t]; B += bw[t]
    }
    fp = solve2(a1, a2, a3, a4, a5, 1); fs = solve2(a1, a2, a3, a4, a5, 2)
    bp = solve2(b1, b2, b3, b4, b5, 1); br = solve2(b1, b2, b3, b4, b5, 2)
    for (t = 0; t <= n; t++) {
        FF += fp * m * R[t] + fs * s[t]; BB += bp * m * R[t] + br * phi * m * cb[t]
    }
    printf "phi (reads per child file block and move): %.4f (%d reads, %d child file blocks)\n", phi, reads, tot
    printf "forward, per thread: %.4g ns a position and move, %.4g ns a slot; fit %.1f s of the run'"'"'s %.1f s\n", fp * thr * 1e9, fs * thr * 1e9, FF, F
    printf "backward, per thread: %.4g ns a position and move, %.4g us a child file block read; fit %.1f s of the run'"'"'s %.1f s\n", bp * thr * 1e9, br * thr * 1e6, BB, B
}'
