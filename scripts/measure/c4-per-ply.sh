#!/bin/sh
# scripts/measure/c4-per-ply.sh SOLVE GAME DB CSV: a Connect Four tier
# database's win/draw/loss counts per ply (per tier: Connect Four's tier is
# the number of discs) against a published per-ply table, e.g. Böck's
# (markus7800/Connect4-Strong-Solver, whose history holds
# src/connect4/solution_wW_hH/results_solve_wW_hH.csv for 5x5, 6x5 and 6x6:
# `git show 17182c2:src/connect4/solution_w6_h6/results_solve_w6_h6.csv`).
# The table's columns: width,height,ply,wincount,drawcount,lostcount[,...],
# counted for the player to move, as this suite counts win/tie/lose.
# SOLVE is bin/solve; it reads DB with --analyze (every record streamed).
# Prints one line per ply and "equal on all N plies", exit 0, or the plies
# that differ, exit 1.
# KEEP_JSON=FILE keeps the --analyze JSON (the totals and the remoteness
# histogram as well), so that a big database is streamed once.
# Example:
#   scripts/measure/c4-per-ply.sh bin/solve connect4:w=5,h=5 "$DB" results_solve_w5_h5.csv
set -eu
# With --progress LOG CSV instead, the positions per ply only, from a
# solve's --progress log (the last `reach tier T (...): N/N positions` line
# of each tier: the forward pass's counts, before the values exist), against
# the table's win + draw + loss, for the plies the log has reached.
if [ $# -eq 3 ] && [ "$1" = --progress ] && [ -f "$2" ] && [ -f "$3" ]; then
    sed -n 's/^tier: reach tier \([0-9]*\) ([^)]*): \([0-9]*\)\/\([0-9]*\) positions.*/\1 \2 \3/p' "$2" |
        awk -F '[ ,]+' '
        NR == FNR { if ($2 == $3) ours[$1] = $2; next }  # a tier finished
        FNR == 1 { next }
        { theirs[$3] = $4 + $5 + $6 }
        END {
            n = 0; bad = 0
            for (p in ours) {
                n++
                same = (ours[p] == theirs[p])
                if (!same) { printf "ply %d: %s here, %s in the table\n", p, ours[p], theirs[p]; bad++ }
            }
            if (bad == 0) printf "positions equal on all %d plies reached\n", n
            exit bad > 0
        }' - "$3"
    exit
fi
[ $# -eq 4 ] && [ -x "$1" ] && [ -d "$3" ] && [ -f "$4" ] || {
    echo "usage: scripts/measure/c4-per-ply.sh SOLVE GAME DB CSV, or --progress LOG CSV" >&2
    exit 2
}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$1" "$2" --db "$3" --analyze --json >"$out"
[ -z "${KEEP_JSON:-}" ] || cp "$out" "$KEEP_JSON"
jq -r '.by_tier // error("no by_tier: not a database of layout tiers") | .[] |
    "\(.tier) \(.win) \(.tie) \(.lose)"' "$out" |
    awk -F '[ ,]+' '
    NR == FNR { ours[$1] = $2 " " $3 " " $4; next }
    FNR == 1 { next }                       # the table header
    { theirs[$3] = $4 " " $5 " " $6; if ($3 + 0 > max) max = $3 + 0 }
    END {
        bad = 0
        printf "%4s %40s %40s\n", "ply", "this database (win draw loss)", "the table (win draw loss)"
        for (p = 0; p <= max; p++) {
            same = (ours[p] == theirs[p])
            printf "%4d %40s %40s%s\n", p, ours[p], theirs[p], same ? "" : "  DIFFERENT"
            if (!same) bad++
        }
        for (p in ours) if (!(p in theirs)) { printf "ply %s only in this database\n", p; bad++ }
        if (bad == 0) printf "equal on all %d plies\n", max + 1
        else printf "%d plies differ\n", bad
        exit bad > 0
    }' - "$4"
