#!/bin/sh
# scripts/placement-halfway.sh GAME [options]: the initial position's value
# by a search from the start of the game (bin/solve --solver search,
# solvers/search.c) down to a "halfway" database: the placement tiers a
# series left in DB with at most H pieces in hand (Morris's stones of both
# players, Bagh Chal's goats), and the tiers of the phase after the
# placement. This is Lim and Nievergelt's method for Bagh Chal (a forward
# search of the placement's first plies whose leaves are the values of a
# database of positions halfway down the tree, found exhaustively), and,
# with -H 0, Gasser's for nine men's morris (leaves in the sectors after
# the placement only). The tiers with more than H pieces in hand, tier 0
# among them, are not linked, so their records cannot reach the search:
# its value checks the series' value of the initial position (tier 0's
# record, OUT/placement.jsonl) by a second method over the tiers above H.
# For GAME morris (scripts/morris/placement-solve.sh's series) or
# baghchal (scripts/baghchal/placement-solve.sh's).
#
#   scripts/placement-halfway.sh GAME [-n N] [-v VARIANT] [-d DB] [-o OUT] [-m 4G] [-H 0] [-w DIR]
#
# -H: the most pieces in hand of a linked placement tier (0: none of
# them); -w: the directory of links (default DB-halfway-H; hard links, on
# DB's file system, removed first). The search runs on one thread with
# --max-memory MEM (its memo, and the linked tiers read by block when
# they do not fit), under the bench lock unless NOLOCK=1
# (scripts/locked-run.sh). Prints one line: the search's value, the
# series', the positions searched and the leaves read from the database;
# writes it with the date, the load, the command, the CPU and peak RSS
# (/usr/bin/time -v) and the search's --json to
# OUT/placement-halfway-hH.txt. Exits 1 when the values differ, 2 when
# tier 0 has no record yet. Defaults as for the game's series
# (scripts/series.sh, series_defaults), 4G.
set -eu
. "$(dirname "$0")/series.sh"
series_defaults "${1:-}"
shift
mem=4G
hand=0
dir=
while getopts n:v:d:o:m:H:w: opt; do
    series_opt "$opt" "${OPTARG:-}" && continue
    case "$opt" in
    H) hand=$OPTARG ;;
    w) dir=$OPTARG ;;
    *) exit 2 ;;
    esac
done
case "$hand" in
'' | *[!0-9]*)
    echo "$(basename "$0"): -H takes a number of pieces in hand, not '$hand'" >&2
    exit 2
    ;;
esac
series_need_db
series_records
series_tiers
want=$(jq -r 'select(.tier == 0) | .value' "$records")
[ -n "$want" ] || {
    echo "$(basename "$0"): the series has not solved tier 0 yet (no record of it in $records)" >&2
    exit 2
}
dir=${dir:-$db-halfway-$hand}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
series_split_db "$tmp"
jq -r --argjson h "$hand" "$SERIES_IN_HAND select(in_hand <= \$h) | .tier" "$records" |
    while read -r t; do series_tier "$t" 5; done >"$tmp/kept"
placed=$(wc -l <"$tmp/kept")
cat "$tmp/later" >>"$tmp/kept"
series_link_db "$dir" "$(series_tier "$(tail -n 1 "$tmp/kept")")" <"$tmp/kept"
cmd="$bin $spec --solver search --db $dir --threads 1 --max-memory $mem --json"
# shellcheck disable=SC2086 # the command's words
"$(dirname "$0")/locked-run.sh" "$tmp/run" $cmd || {
    rc=$?
    echo "$(basename "$0"): the search failed (exit $rc): $(tail -n 30 "$tmp/run.err" | grep -v '^\s' | head -n 3)" >&2
    exit "$rc"
}
mv "$tmp/run.json" "$tmp/json"
got=$(jq -r .value "$tmp/json")
line=$(jq -r --arg want "$want" --arg h "$hand" --arg placed "$placed" '.solver_stats as $s |
    "the initial position by search down to \($placed) placement tiers (at most \($h) in hand) and the later ones: \(.value); the series: \($want); \($s.search_nodes) positions searched, \($s.db_leaves) leaves read from the database, \(.wall_seconds) s"' \
    "$tmp/json")
echo "$line"
{
    echo "$line"
    cat "$tmp/run.meta"
    grep -E 'User time|System time|Maximum resident' "$tmp/run.err"
    echo "db=$db links=$dir ($(wc -l <"$tmp/kept") tier files, $placed of them placement tiers)"
    echo "search: $cmd"
    cat "$tmp/json"
} >"$out/placement-halfway-h$hand.txt"
[ "$got" = "$want" ]
