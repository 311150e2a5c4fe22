#!/bin/sh
# scripts/series-compare.sh A B: two runs of one tier-by-tier series (the
# directories their records went to, such as results/big/baghchal5 and a
# second run's OUT), compared tier by tier where both have solved it: the
# placement tiers' records (placement.jsonl: positions, wins, losses,
# draws; a tier recorded twice in one file: its last line) and the sliding
# tiers' (slide-C.json, --json of one tier:sector run: its tier's
# solver_stats sector_positions, sector_wins, sector_losses, sector_draws).
# Times, peaks and bytes are left out: they belong to the machine and the
# build. Prints one line per tier that differs, then "N tiers in both: all
# equal" or "N tiers in both: K differ" ("0 tiers in both: nothing
# compared"), and how many tiers only one run has.
# Exit 0 when all equal, 1 when a tier differs or none is in both, 2 on bad
# arguments.
#   scripts/series-compare.sh results/big/baghchal5 OUT   (OUT: a second run's -o)
set -eu
if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2" ]; then
    echo "usage: scripts/series-compare.sh A B (two directories of a series' records)" >&2
    exit 2
fi
command -v jq >/dev/null || { echo "series-compare.sh: needs jq" >&2; exit 2; }
# One line a tier of directory $1: "key positions wins losses draws", the
# placement tiers keyed by their number, the sliding ones by slide-C.
tiers() {
    if [ -f "$1/placement.jsonl" ]; then
        jq -r '"\(.tier) \(.positions) \(.wins) \(.losses) \(.draws)"' "$1/placement.jsonl" |
            awk '{ last[$1] = $0 } END { for (k in last) print last[k] }'
    fi
    for f in "$1"/slide-*.json; do
        [ -f "$f" ] || continue
        k=$(basename "$f" .json)
        jq -r --arg k "$k" '.solver_stats | "\($k) \(.sector_positions) \(.sector_wins) \(.sector_losses) \(.sector_draws)"' "$f"
    done
}
a=$(mktemp)
b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
tiers "$1" | sort >"$a"
tiers "$2" | sort >"$b"
awk -v A="$1" -v B="$2" '
    FNR == NR { rec[$1] = $0; next }
    { seen[$1] = 1 }
    ($1 in rec) {
        both++
        if (rec[$1] != $0) {
            differ++
            print "tier " $1 ": " A ": " rec[$1] " / " B ": " $0
        }
        next
    }
    { onlyb++ }
    END {
        for (k in rec) if (!(k in seen)) onlya++
        printf "%d tiers in both: %s\n", both, differ ? differ " differ" : both ? "all equal" : "nothing compared"
        printf "only in %s: %d; only in %s: %d\n", A, onlya + 0, B, onlyb + 0
        exit (differ || both == 0) ? 1 : 0
    }' "$a" "$b"
