#!/bin/sh
# scripts/bench-table.sh: a small solve matrix printed as a table: every
# registered solver on each game variant below that it supports, one
# bin/solve --json run each. (The Google Benchmark driver replaces this.)
set -eu
solve=${SOLVE:-bin/solve}
variants=${GAMES:-"tictactoe tictactoe:sym tictactoe:misere othello othello:sym"}
solvers=$("$solve" --list | sed -n '/^solvers/,$p' | awk 'NR > 1 && /^  [a-z]/ {print $1}')
printf '%-22s %-12s %6s %9s %10s %10s %10s %10s %11s\n' game solver value remote positions \
    hash unhash calls seconds
for v in $variants; do
    for s in $solvers; do
        j=$("$solve" "$v" --solver "$s" --json 2>/dev/null) || continue
        echo "$j" | jq -r --arg v "$v" '[$v, .solver, .value, .remoteness,
            (.positions // "-"), .counters.hash, .counters.unhash, .counters.calls,
            (.wall_seconds * 1e6 | round / 1e6)] | @tsv' |
            awk -F'\t' '{printf "%-22s %-12s %6s %9s %10s %10s %10s %10s %11s\n",
                $1, $2, $3, $4, $5, $6, $7, $8, $9}'
    done
done
