#!/bin/sh
# scripts/measure/sym-vs-journal.sh PROGRESS JOURNAL: the symbolic solver's
# win/lose/tie counts per ply (its --progress lines "symbolic: backward ply
# N: W win, L lose, T tie ...", the last one of each ply, loaded or solved)
# against a --verify journal of the same board's explicit database (lines
# "tier=N ... win=W lose=L tie=T ...": Connect Four's tier is the ply).
# Prints one line per ply and "equal on all N plies" (exit 0), or the plies
# that differ or that only one side has (exit 1).
# Example (docs/symbolic.md, 5x7):
#   scripts/measure/sym-vs-journal.sh progress.txt \
#       results/big/connect4-5x7-blocks/rerun-2026-11-27b/verify2-journal.txt
set -eu
[ $# -eq 2 ] || { echo "usage: scripts/measure/sym-vs-journal.sh PROGRESS JOURNAL" >&2; exit 2; }
sed -n 's/^symbolic: backward ply \([0-9]*\)[^:]*: \([0-9]*\) win, \([0-9]*\) lose, \([0-9]*\) tie.*/\1 \2 \3 \4/p' "$1" |
    awk '
    NR == FNR { sym[$1] = $2 " " $3 " " $4; next }
    /^tier=/ {
        t = ""; w = ""; l = ""; d = ""
        for (i = 1; i <= NF; i++) {
            split($i, kv, "=")
            if (kv[1] == "tier") t = kv[2]
            if (kv[1] == "win") w = kv[2]
            if (kv[1] == "lose") l = kv[2]
            if (kv[1] == "tie") d = kv[2]
        }
        if (t != "") exp_[t] = w " " l " " d
    }
    END {
        n = 0; bad = 0
        for (p = 0; p <= 1000; p++) {
            if (!(p in sym) && !(p in exp_)) continue
            if (!(p in exp_)) { print "ply " p ": symbolic " sym[p] ", not in the journal"; bad++; continue }
            if (!(p in sym)) { print "ply " p ": explicit " exp_[p] ", not in the progress"; bad++; continue }
            same = sym[p] == exp_[p]
            print "ply " p ": symbolic " sym[p] (same ? " = " : " differs from ") "explicit " exp_[p]
            n++; bad += !same
        }
        if (bad == 0 && n > 0) { print "equal on all " n " plies"; exit 0 }
        print bad " plies differ or are missing"; exit 1
    }' - "$2"
