#!/bin/sh
# scripts/morris-sector-compare.sh: the sector counts of two series of
# scripts/morris-sector-solve.sh compared, sector by sector: the canonical
# positions of the sector and its wins, losses and draws
# (solver_stats.sector_*), from the JSON records in DIR_A and DIR_B. Two
# builds that index or canonicalize differently (results/big/morris9: the
# hash's slots, d988d86 and before; results/big/morris9c: the index by
# classes) must agree on every count, since a class's value does not
# depend on which board stands for it.
#
#   scripts/morris-sector-compare.sh [DIR_A [DIR_B]]
#
# Prints a Markdown table of the sectors both hold, then a line with the
# number that agree; exits 1 if any differs, 2 if none is common.
set -eu
a=${1:-results/big/morris9}
b=${2:-results/big/morris9c}
printf '| sector | positions | wins | losses | draws | %s | %s |\n' "$a" "$b"
printf '|---|---|---|---|---|---|---|\n'
same=0
diff=0
for fa in "$a"/sector-*.json; do
    s=${fa##*/sector-}
    s=${s%.json}
    fb="$b/sector-$s.json"
    [ -s "$fa" ] && [ -s "$fb" ] || continue
    q='.solver_stats | [.sector_positions, .sector_wins, .sector_losses, .sector_draws] | map(tostring) | join(" | ")'
    ca=$(jq -r "$q" "$fa")
    cb=$(jq -r "$q" "$fb")
    if [ "$ca" = "$cb" ]; then
        same=$((same + 1))
        printf '| %s | %s | same | same |\n' "$s" "$ca"
    else
        diff=$((diff + 1))
        printf '| %s | %s | these | differs: %s |\n' "$s" "$ca" "$(echo "$cb" | tr -d ' ' | tr '|' '/')"
    fi
done
echo
echo "$same sectors agree, $diff differ"
[ "$diff" -eq 0 ] || exit 1
[ "$same" -gt 0 ] || exit 2
