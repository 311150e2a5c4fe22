#!/bin/sh
# scripts/placement-verify.sh GAME [options]: the placement tiers that a
# series (scripts/morris/placement-solve.sh, GAME morris;
# scripts/baghchal/placement-solve.sh, GAME baghchal) left in DB checked
# from disk, every record against its children's records (bin/solve
# --verify), without checking the whole database. The tiers with at least
# K pieces in hand (Morris: white's and black's stones together; Bagh
# Chal: the goats; from the tier's name, scripts/series.sh) are linked
# (hard links: no copy, DB's files untouched) into a directory of their
# own with the tiers of K - 1 in hand (one placement below: their
# children, there but not all verified, since their own children are not
# all there); a `tier:sector` run over the top tier there writes that
# directory's manifest (it finds the tier on disk and solves nothing);
# then `--verify`, under the bench lock, checks every tier whose children
# are all there. scripts/morris/placement-verify.sh and
# scripts/baghchal/placement-verify.sh run it for their game.
#
#   scripts/placement-verify.sh GAME [-n N] [-v VARIANT] [-d DB] [-o OUT] [-m MEM] [-k 4] [-w DIR] [-j]
#
# Which tiers and hands come from OUT/placement.jsonl (the series'
# records). -k 1 (or 0) links every file in DB, the tiers of the phase
# after the placement too: the whole database. -w: the directory for the
# links (default DB-verify-K; it must be on DB's file system, and is
# removed first). Leaves OUT/placement-verify-K.{json,err,meta} (the
# verify's --json output, its standard error with /usr/bin/time -v, the
# date and load) and prints one line: tiers linked, tiers and positions
# verified, tiers unverified. -j: the verify keeps a journal,
# OUT/placement-verify-K.journal (--journal, docs/database.md), and a run
# stopped anywhere resumes by the same command, taking the tiers that
# passed from it (the links are made anew, but hard links name the same
# files, so the journal's lines still match them); delete the journal to
# check everything again. Exits with --verify's status: not 0 when a
# record disagrees with its children or a file is corrupt (the message is
# in the .err file). Defaults: the game's series' (scripts/series.sh,
# series_defaults: n, variant, DB from MORRIS_DB or BAGHCHAL_DB, no
# default directory, OUT, --max-memory), 2 threads, the timing build (BIN=
# to change); NOLOCK=1 when the caller holds the lock.
set -eu
. "$(dirname "$0")/series.sh"
series_defaults "${1:-}"
shift
k=4
dir=
journal=0
while getopts n:v:d:o:m:k:w:j opt; do
    series_opt "$opt" "${OPTARG:-}" && continue
    case "$opt" in
    k) k=$OPTARG ;;
    w) dir=$OPTARG ;;
    j) journal=1 ;;
    *) exit 2 ;;
    esac
done
series_need_db
series_records
series_tiers
dir=${dir:-$db-verify-$k}
# The top tier linked: the one with the most pieces in hand.
top=$(jq -rs "$SERIES_IN_HAND max_by(in_hand) | .tier" "$records")
if [ "$k" -le 1 ]; then
    (cd "$db" && ls tier-*.gmdb)
else
    jq -r --argjson k "$k" "$SERIES_IN_HAND select(in_hand >= \$k - 1) | .tier" "$records" |
        while read -r t; do series_tier "$t" 5; done
fi | series_link_db "$dir" "$top"
linked=$(find "$dir" -name 'tier-*.gmdb' | wc -l)
base="$out/placement-verify-$k"
cmd="$bin $spec --db $dir --verify --threads 2 --json --max-memory $mem"
[ "$journal" = 0 ] || cmd="$cmd --journal $base.journal"
# shellcheck disable=SC2086 # the command's words
"$(dirname "$0")/locked-run.sh" "$base" $cmd || {
    rc=$?
    echo "$(basename "$0"): --verify failed (exit $rc), see $base.err" >&2
    exit "$rc"
}
jq -r --argjson linked "$linked" '.solver_stats as $s
    | "\($linked) tiers linked: \($s.partial_tiers - $s.unverified_tiers) verified (\($s.verified_positions) positions), \($s.unverified_tiers) unverified"' \
    "$base.json"
