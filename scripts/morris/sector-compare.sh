#!/bin/sh
# scripts/morris/sector-compare.sh: two series of scripts/morris/sector-solve.sh
# compared, sector by sector, from their records in DIR_A and DIR_B: the
# canonical positions of the sector and its wins, losses and draws
# (solver_stats.sector_*), which must agree, then what each run took: CPU
# (user + system, /usr/bin/time -v in sector-W-B.err), jemalloc's peak and
# the tier file's bytes on disk (sector-W-B.txt). Two builds that index or
# canonicalize differently (results/big/morris9: the hash's slots, before
# d988d86; results/big/morris9c: the index by classes) must agree on every
# count, since a class's value does not depend on which board stands for it.
# A series with the colour swap (variant `swap`: results/big/morris9s) holds
# in W-W white to move only: its W-W counts are doubled before the
# comparison (a position and its colour twin have one value), and its W-B,
# W > B, holds what W-B without the swap holds (both players to move).
#
#   scripts/morris/sector-compare.sh [DIR_A [DIR_B]]
#
# Prints a Markdown table of the sectors both hold (in DIR_A's file order),
# then a line with the number that agree; exits 1 if any count differs, 2 if
# no sector is common.
set -eu
a=${1:-results/big/morris9}
b=${2:-results/big/morris9c}
cpu() { awk -F': ' '/User time|System time/ { t += $2 } END { printf "%.0f s", t }' "$1"; }
peak() { jq -r '.peak_bytes / 1048576 | if . >= 1024 then "\(. / 1024 * 100 | round / 100) GiB" else "\(. * 10 | round / 10) MiB" end' "$1"; }
disk() { sed -n 's/^disk_bytes=//p' "$1" | awk '{ printf "%.1f MiB", $1 / 1048576 }'; }
printf '| sector | positions | wins | losses | draws | counts | CPU A | CPU B | peak A | peak B | disk A | disk B |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
same=0
diff=0
for fa in "$a"/sector-*.json; do
    s=${fa##*/sector-}
    s=${s%.json}
    fb="$b/sector-$s.json"
    # both runs complete: the JSON and the .txt the script writes after it
    [ -s "$fa" ] && [ -s "$fb" ] && [ -f "$a/sector-$s.txt" ] && [ -f "$b/sector-$s.txt" ] || continue
    # with swap, W-W counts one mover: twice that for both
    q='(if (.variant | test("(^|,)swap(,|$)")) and $w == $b then 2 else 1 end) as $k
       | .solver_stats | [.sector_positions, .sector_wins, .sector_losses, .sector_draws]
       | map(. * $k | tostring) | join(" | ")'
    ca=$(jq -r --arg w "${s%-*}" --arg b "${s#*-}" "$q" "$fa")
    cb=$(jq -r --arg w "${s%-*}" --arg b "${s#*-}" "$q" "$fb")
    if [ "$ca" = "$cb" ]; then
        same=$((same + 1))
        verdict=same
    else
        diff=$((diff + 1))
        verdict="DIFFER: B has $(echo "$cb" | tr -d ' ' | tr '|' '/')"
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$s" "$ca" "$verdict" \
        "$(cpu "$a/sector-$s.err")" "$(cpu "$b/sector-$s.err")" "$(peak "$fa")" "$(peak "$fb")" \
        "$(disk "$a/sector-$s.txt")" "$(disk "$b/sector-$s.txt")"
done
echo
echo "A: $a; B: $b. $same sectors agree, $diff differ"
[ "$diff" -eq 0 ] || exit 1
[ "$same" -gt 0 ] || exit 2
