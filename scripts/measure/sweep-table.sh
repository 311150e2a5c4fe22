#!/bin/sh
# scripts/measure/sweep-table.sh [SOLVE]: the sweep solver's cost against a
# depth-first or retrograde reference on one variant of every game it
# solves, as the Markdown table of docs/solvers.md, "Sweep and tier solvers"
# section: sweeps (marking + value + tie), primitive checks, unhashes,
# generate_moves calls and database reads. The reference is dfs, or retro
# for loopy games (dfs cannot solve them). Counts, not times: deterministic.
# Set GAMES to choose the variants (space-separated).
set -eu
solve=${1:-bin/solve}
games=${GAMES:-"tictactoe tictactoe:sym connect4:w=4,h=4 connect4:w=5,h=4 othello
quarto:n=4,attrs=2 subtract:n=30,moves=1-2-3 nim:heaps=3-4-5 hexapawn hexapawn:w=4,h=4
dodgem dodgem:n=4 ponghauki mutorere achi"}
echo '| game | solver | positions | sweeps (mark+value+tie) | primitive | unhash | generate_moves | db_reads |'
echo '|---|---|---|---|---|---|---|---|'
for g in $games; do
    reference=dfs
    "$solve" "$g" --solver dfs --json >/dev/null 2>&1 || reference=retro
    for s in "$reference" sweep sweep:down; do
        "$solve" "$g" --solver "$s" --json | jq -r --arg g "$g" --arg s "$s" '
            (if .solver_stats.sweeps then
                "\(.solver_stats.sweeps) (\(.solver_stats.marking_sweeps)+\(.solver_stats.value_sweeps)+\(.solver_stats.tie_sweeps))"
             else "-" end) as $sw |
            "| `\($g)` | `\($s)` | \(.positions) | \($sw) | \(.counters.primitive) | \(.counters.unhash) | \(.counters.generate_moves) | \(.counters.db_reads) |"'
    done
done
