#!/bin/sh
# scripts/placement-crosscheck.sh GAME [options]: the placement tiers'
# values checked against a second method, for GAME morris (the series of
# scripts/morris/placement-solve.sh) or baghchal
# (scripts/baghchal/placement-solve.sh). N positions of the placement
# phase (random play from the initial position, `--sample`, with at most H
# pieces in hand: Morris's stones of both players, Bagh Chal's goats) are
# valued twice: by `--query` from DB, the placement tiers the series solved
# there; and by the `search` solver (solvers/search.c) from each position
# with `--query P`, its leaves read from the tiers of the phase after the
# placement only (Morris's mid- and endgame sectors, Bagh Chal's sliding
# tiers: hard links to DB's files of the tiers that are not placement
# tiers, in a directory of their own, so that no placement tier's record
# can reach the search). scripts/morris/placement-crosscheck.sh and
# scripts/baghchal/placement-crosscheck.sh run it for their game.
#
#   scripts/placement-crosscheck.sh GAME [-n N] [-v VARIANT] [-d DB] [-o OUT] [-m 4G] [-N 200] [-H 4] [-s 1] [-w DIR]
#
# -N: positions; -H: the most pieces in hand (the search grows with the
# placements left: near the end of the placement it is cheap, and -H
# higher goes further up); -s: --sample's seed; -w: the directory of links
# (default DB-sectors; on DB's file system; removed first). Needs
# OUT/placement.jsonl to tell the placement tiers' files from the others.
# Prints one line per disagreement and a summary line, which also goes to
# OUT/placement-crosscheck-hH.txt with the date, the load, the commands and
# the positions by value; exits 1 when a value differs. Defaults as for
# the game's series (scripts/series.sh, series_defaults), --max-memory 4G
# (the tiers read by block when they do not fit); no bench lock (it is
# light).
set -eu
. "$(dirname "$0")/series.sh"
series_defaults "${1:-}"
shift
mem=4G
count=200
hand=4
seed=1
dir=
while getopts n:v:d:o:m:N:H:s:w: opt; do
    series_opt "$opt" "${OPTARG:-}" && continue
    case "$opt" in
    N) count=$OPTARG ;;
    H) hand=$OPTARG ;;
    s) seed=$OPTARG ;;
    w) dir=$OPTARG ;;
    *) exit 2 ;;
    esac
done
series_need_db
series_records
series_tiers
dir=${dir:-$db-sectors}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
series_split_db "$tmp"
first=$(series_tier "$(head -n 1 "$tmp/later")")
series_link_db "$dir" "$first" <"$tmp/later"
# The sample: placement positions (pieces in hand) with at most H of them.
"$bin" "$spec" --sample $((count * 20)) --seed "$seed" |
    awk -F: -v h="$hand" "($in_hand_awk) > 0 && ($in_hand_awk) <= h && !seen[\$0]++" |
    head -n "$count" >"$tmp/positions"
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
line="$got placement positions (at most $hand $pieces in hand, --sample seed $seed): $((got - differ)) valued alike by the placement tiers and by the search over the $later alone, $differ differ; the searches took $secs s"
echo "$line"
{
    echo "$line"
    echo "date=$start load=$load"
    echo "db=$db sectors=$dir ($(wc -l <"$tmp/later") tier files)"
    echo "query: $bin $spec --db $db --query - (the positions)"
    echo "search: $bin $spec --solver search --db $dir --threads 1 --max-memory $mem --query P --json"
    awk '{ v[$2]++ } END { for (k in v) printf "%s %d\n", k, v[k] }' "$tmp/db" | sort
} >"$out/placement-crosscheck-h$hand.txt"
[ "$differ" = 0 ]
