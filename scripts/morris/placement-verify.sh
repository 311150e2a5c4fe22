#!/bin/sh
# scripts/morris/placement-verify.sh: the placement tiers that
# scripts/morris/placement-solve.sh left in DB checked from disk, every
# record against its children's records (bin/solve --verify), without
# checking the whole database. The tiers with at least K stones in hand
# (white's and black's together) are linked (hard links: no copy, DB's
# files untouched) into a directory of their own with the tiers one
# placement below them (K - 1 stones in hand: their children, there but
# not verified, since their own children are not); a `tier:sector` run
# over the top tier there writes that directory's manifest (it finds the
# tier on disk and solves nothing); then `--verify`, under the bench lock.
#
#   scripts/morris/placement-verify.sh [-n 9] [-v sym,swap] [-d DB] [-o OUT] [-m 20G] [-k 4] [-w DIR]
#
# Which tiers and hands come from OUT/placement.jsonl (the series'
# records). -k 1 (or 0) links every file in DB, sectors too: the whole
# database. -w: the directory for the links (default DB-verify-K; it must
# be on DB's file system, and is removed first). Leaves
# OUT/placement-verify-K.{json,err,meta} (the verify's --json output, its
# standard error with /usr/bin/time -v, the date and load) and prints one
# line: tiers linked, tiers and positions verified, tiers unverified.
# Exits with --verify's status: not 0 when a record disagrees with its
# children or a file is corrupt (the message is in the .err file).
# Defaults: n=9, sym,swap, DB $MORRIS_DB (no default: -d or MORRIS_DB), OUT
# results/big/morris9s, --max-memory 20G, 2 threads, the timing build
# (BIN= to change); NOLOCK=1 when the caller holds the lock.
set -eu
. "$(dirname "$0")/common.sh"
morris_series_defaults
k=4
dir=
while getopts n:v:d:o:m:k:w: opt; do
    morris_opt "$opt" "${OPTARG:-}" && continue
    case "$opt" in
    k) k=$OPTARG ;;
    w) dir=$OPTARG ;;
    *) exit 2 ;;
    esac
done
morris_need_db
morris_placement_records
morris_tiers
dir=${dir:-$db-verify-$k}
handsum='(.hands | split("-") | map(tonumber) | add)'
# The top tier linked: the one with the most stones in hand.
top=$(jq -rs "max_by($handsum) | .tier" "$records")
if [ "$k" -le 1 ]; then
    (cd "$db" && ls tier-*.gmdb)
else
    jq -r --argjson k "$k" "select($handsum >= \$k - 1) | .tier" "$records" |
        while read -r t; do morris_tier "$t" 5; done
fi | morris_link_db "$dir" "$top"
linked=$(find "$dir" -name 'tier-*.gmdb' | wc -l)
base="$out/placement-verify-$k"
cmd="$bin $spec --db $dir --verify --threads 2 --json --max-memory $mem"
# shellcheck disable=SC2086 # the command's words
"$(dirname "$0")/../locked-run.sh" "$base" $cmd || {
    rc=$?
    echo "scripts/morris/placement-verify.sh: --verify failed (exit $rc), see $base.err" >&2
    exit "$rc"
}
jq -r --argjson linked "$linked" '.solver_stats as $s
    | "\($linked) tiers linked: \($s.partial_tiers - $s.unverified_tiers) verified (\($s.verified_positions) positions), \($s.unverified_tiers) unverified"' \
    "$base.json"
