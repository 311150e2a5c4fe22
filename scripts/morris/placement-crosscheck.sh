#!/bin/sh
# scripts/morris/placement-crosscheck.sh: the placement tiers' values
# checked against a second method. N positions of the placement phase
# (random play from the empty board, `--sample`, with at most H stones in
# hand in all) are valued twice: by `--query` from DB, the placement
# tiers scripts/morris/placement-solve.sh solved there; and by the
# `search` solver (solvers/search.c) from each position with `--query P`,
# its leaves read from the mid- and endgame sectors only (hard links to
# DB's files of the tiers with no stones in hand, in a directory of their
# own, so that no placement tier's record can reach the search).
#
#   scripts/morris/placement-crosscheck.sh [-n 9] [-v sym,swap] [-d DB] [-o OUT] [-m 4G] [-N 200] [-H 4] [-s 1] [-w DIR]
#
# -N: positions; -H: the most stones in hand (the search grows with the
# placements left); -s: --sample's seed; -w: the directory of links
# (default DB-sectors; on DB's file system; removed first). Needs
# OUT/placement.jsonl to tell the placement tiers' files from the
# sectors'. Prints one line per disagreement and a summary line, which
# also goes to OUT/placement-crosscheck-hH.txt with the date, the load and
# the commands; exits 1 when a value differs. Defaults as for
# scripts/morris/placement-solve.sh (scripts/morris/common.sh), --max-memory 4G (the
# sectors read by block); no bench lock (it is light).
set -eu
. "$(dirname "$0")/common.sh"
morris_series_defaults
mem=4G
count=200
hand=4
seed=1
dir=
while getopts n:v:d:o:m:N:H:s:w: opt; do
    morris_opt "$opt" "${OPTARG:-}" && continue
    case "$opt" in
    N) count=$OPTARG ;;
    H) hand=$OPTARG ;;
    s) seed=$OPTARG ;;
    w) dir=$OPTARG ;;
    *) exit 2 ;;
    esac
done
morris_need_db
morris_placement_records
morris_tiers
dir=${dir:-$db-sectors}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jq -r '.tier' "$records" | while read -r t; do morris_tier "$t" 5; done | sort >"$tmp/placement"
(cd "$db" && ls tier-*.gmdb) | sort | comm -23 - "$tmp/placement" >"$tmp/sectors"
first=$(morris_tier "$(head -n 1 "$tmp/sectors")")
morris_link_db "$dir" "$first" <"$tmp/sectors"
# The sample: placement positions (stones in hand) with at most H of them.
"$bin" "$spec" --sample $((count * 20)) --seed "$seed" |
    awk -F: -v h="$hand" '$2 + $3 > 0 && $2 + $3 <= h && !seen[$0]++' | head -n "$count" >"$tmp/positions"
got=$(wc -l <"$tmp/positions")
start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load=$(cut -d' ' -f1-3 /proc/loadavg)
"$bin" "$spec" --db "$db" --query - <"$tmp/positions" | jq -r '.position + " " + .value' >"$tmp/db"
t0=$(date +%s)
while read -r p; do
    printf '%s %s\n' "$p" "$("$bin" "$spec" --solver search --db "$dir" --threads 1 \
        --max-memory "$mem" --query "$p" --json | jq -r .query.value)"
done <"$tmp/positions" >"$tmp/search"
secs=$(($(date +%s) - t0))
paste -d' ' "$tmp/db" "$tmp/search" | awk '$1 != $3 || $2 != $4' | tee "$tmp/diff"
differ=$(wc -l <"$tmp/diff")
line="$got placement positions (at most $hand stones in hand, --sample seed $seed): $((got - differ)) valued alike by the placement tiers and by the search over the sectors alone, $differ differ; the searches took $secs s"
echo "$line"
{
    echo "$line"
    echo "date=$start load=$load"
    echo "db=$db sectors=$dir ($(wc -l <"$tmp/sectors") tier files)"
    echo "query: $bin $spec --db $db --query - (the positions)"
    echo "search: $bin $spec --solver search --db $dir --threads 1 --max-memory $mem --query P --json"
    awk '{ v[$2]++ } END { for (k in v) printf "%s %d\n", k, v[k] }' "$tmp/db" | sort
} >"$out/placement-crosscheck-h$hand.txt"
[ "$differ" = 0 ]
