#!/bin/sh
# scripts/measure/tier-bytes.sh DB PROGRESS: what a tier database costs on
# disk, per tier. DB is a database directory written by a tier solver (its
# manifest's `file NAME TIER RECORDS FIRST BYTES CHECKSUM` lines, or, for a
# solve in progress, the part files' sizes and the reach-TTTT.gmdb bitmap
# files then on disk); PROGRESS is the solve's `--progress` output (stderr),
# whose last `reach tier T (...): N/N positions` line per tier gives the
# tier's reachable positions.
# Prints one line per tier: records (slots; from the manifest), positions,
# bytes of the part files, bytes a position, and the bitmap file's bytes
# against its raw size (one bit a slot) when it is there; then the least
# squares fit bytes = a * positions + b * (records - positions) over the
# tiers of at least 1,000,000 positions (what a reachable position and an
# unreachable slot cost), the figures docs/connect-four.md quotes for
# tier:blocks' disk model.
# Example:
#   scripts/measure/tier-bytes.sh "$DB" results/big/connect4-5x7-blocks/progress-per-tier.txt
set -eu
[ $# -eq 2 ] && [ -d "$1" ] && [ -f "$2" ] || {
    echo "usage: scripts/measure/tier-bytes.sh DB PROGRESS (a database directory, a --progress log)" >&2
    exit 2
}
db=$1
{
    sed -n 's/^tier: reach tier \([0-9]*\) ([^)]*): \([0-9]*\)\/[0-9]* positions.*/P \1 \2/p' "$2"
    if [ -f "$db/manifest" ]; then
        awk '$1 == "file" && $2 ~ /^tier-/ { print "F", $3 + 0, $4, $6 }' "$db/manifest"
    else
        for f in "$db"/tier-*.gmdb; do
            [ -e "$f" ] || continue
            t=$(basename "$f" | sed 's/^tier-0*\([0-9][0-9]*\)-.*/\1/')
            echo "F $t 0 $(stat -c %s "$f")"
        done
    fi
    for f in "$db"/reach-*.gmdb; do
        [ -e "$f" ] || continue
        t=$(basename "$f" .gmdb | sed 's/^reach-0*\([0-9]\)/\1/')
        echo "B $t $(stat -c %s "$f")"
    done
} | awk '
$1 == "P" { pos[$2] = $3; if ($2 > max) max = $2 }
$1 == "F" { rec[$2] += $3; bytes[$2] += $4; if ($2 > max) max = $2 }
$1 == "B" { bm[$2] = $3; if ($2 > max) max = $2 }
END {
    printf "%4s %15s %15s %15s %8s %15s %7s\n", "tier", "records", "positions", "bytes", "B/pos", "bitmap file", "of raw"
    for (t = 0; t <= max; t++) {
        bpp = (pos[t] > 0 && bytes[t] > 0) ? sprintf("%.3f", bytes[t] / pos[t]) : "-"
        raw = (t in bm && rec[t] > 0) ? sprintf("%.2f", bm[t] / (rec[t] / 8)) : "-"
        printf "%4d %15.0f %15.0f %15.0f %8s %15s %7s\n", t, rec[t], pos[t], bytes[t], bpp, (t in bm) ? bm[t] : "-", raw
        if (pos[t] >= 1000000 && rec[t] > 0 && bytes[t] > 0) {
            x = pos[t]; y = rec[t] - pos[t]; z = bytes[t]
            sxx += x * x; sxy += x * y; syy += y * y; sxz += x * z; syz += y * z
            tp += pos[t]; tb += bytes[t]
        }
    }
    det = sxx * syy - sxy * sxy
    if (det > 0)
        printf "fit over the tiers of >= 1e6 positions: %.4f bytes a position + %.4f bytes an unreachable slot (%.3f bits); overall %.3f bytes a position\n",
            (sxz * syy - syz * sxy) / det, (sxx * syz - sxy * sxz) / det, 8 * (sxx * syz - sxy * sxz) / det, tb / tp
}'
