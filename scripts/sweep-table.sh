#!/bin/sh
# scripts/sweep-table.sh [SOLVE]: the sweep solver's cost against dfs on
# every tic-tac-toe variant, as the Markdown table of README.md's "Sweep and
# tier solvers" section (sweeps, primitive checks, unhashes, db reads).
set -eu
solve=${1:-bin/solve}
echo '| game | solver | sweeps (marking+value) | primitive | unhash | generate_moves | db_reads |'
echo '|---|---|---|---|---|---|---|'
for g in tictactoe tictactoe:misere tictactoe:sym tictactoe:misere,sym; do
    for s in dfs sweep sweep:down sweep:recheck sweep:down,recheck; do
        "$solve" "$g" --solver "$s" --json | jq -r --arg g "$g" --arg s "$s" '
            (if .solver_stats.sweeps then
                "\(.solver_stats.sweeps) (\(.solver_stats.marking_sweeps)+\(.solver_stats.value_sweeps))"
             else "-" end) as $sw |
            "| `\($g)` | `\($s)` | \($sw) | \(.counters.primitive) | \(.counters.unhash) | \(.counters.generate_moves) | \(.counters.db_reads) |"'
    done
done
