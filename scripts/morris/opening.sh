#!/bin/sh
# scripts/morris/opening.sh: the value of the empty board of nine (or six,
# three) men's morris, Gasser's way: the search solver (solvers/search.c)
# from the empty board through the placement phase, its leaves read from a
# database of the mid- and endgame sectors (scripts/morris/sector-solve.sh
# leaves one). Run under the bench lock, timed with /usr/bin/time -v; the
# --json output, the time and the load go to OUT/opening.{json,err,txt},
# and one line to stdout.
#
#   scripts/morris/opening.sh [-n 9] [-v sym,swap] [-d DB] [-o OUT] [-m 20G] [-M 24] [-t 2]
#
# -M: the memo's size, 2^M positions (search:memo=M, 8 bytes each); -t:
# threads (2: the search's two questions at once). Defaults: n=9, variant
# options sym,swap, DB $MORRIS_DB (no default: -d or MORRIS_DB is
# needed), OUT results/big/morris9s,
# --max-memory 20G, the timing build (BIN= to change). NOLOCK=1 when the
# caller holds the bench lock already. The database must hold every
# movement sector (all 28 for nine men's morris with sym,swap): the search
# refuses a position of a movement sector it lacks, naming the tier.
set -eu
. "$(dirname "$0")/common.sh"
morris_series_defaults
memo=24
threads=2
while getopts n:v:d:o:m:M:t: opt; do
    morris_opt "$opt" "${OPTARG:-}" && continue
    case "$opt" in
    M) memo=$OPTARG ;;
    t) threads=$OPTARG ;;
    *) exit 2 ;;
    esac
done
morris_need_db
mkdir -p "$out"
base="$out/opening"
cmd="$bin morris:n=$n${vopts:+,$vopts} --solver search:memo=$memo --threads $threads --json --progress --max-memory $mem --db $db"
# shellcheck disable=SC2086 # the command's words
"$(dirname "$0")/../locked-run.sh" "$base" $cmd || {
    echo "scripts/morris/opening.sh: the search failed, see $base.err" >&2
    exit 1
}
after=$(cut -d' ' -f1-3 /proc/loadavg)
{
    printf 'command=%s\n' "$cmd"
    cat "$base.meta"
    printf 'load_after=%s\n' "$after"
} >"$base.txt"
rm -f "$base.meta"
jq -c '{value, wall_seconds, peak_bytes, peak_rss_bytes, threads, search: .solver_stats}' "$base.json"
