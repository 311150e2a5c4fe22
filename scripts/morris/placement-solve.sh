#!/bin/sh
# scripts/morris/placement-solve.sh: the opening (placement) tiers of nine
# (or six, three) men's morris solved one by one over the mid- and endgame
# sectors (scripts/morris/sector-solve.sh), each by `tier:sector=T`
# (solvers/tier/), its child tiers loaded from the database directory
# where earlier runs left them (only the children: the walk stops at a
# tier on disk). The tiers go in an order that respects the moves: by
# stones in hand, from black's last placement (hands 0, 1: its children
# are movement sectors) back to the empty board (hands n, n), every tier
# of one hand count before the next, since a placement leads from hands
# (w, b) to (w - 1, b) or (w, b - 1) only; within a hand count, in order
# of size (slots). A tier whose record is in OUT/placement.jsonl and whose
# file is in DB is skipped, so the series resumes where it stopped.
#
#   scripts/morris/placement-solve.sh [-n 9] [-v sym,swap] [-d DB] [-o OUT] [-m 20G] [-l N] [-t T]
#
# Each tier is one run under the bench lock (scripts/locked-run.sh), timed
# by /usr/bin/time -v, and leaves one JSON line in OUT/placement.jsonl:
# the tier, its name, its hands and stones on the board, slots, the positions it
# holds by value (solver_stats.sector_*), the value of the empty board
# when the tier is hers (tier 0), wall and CPU seconds, peaks (jemalloc
# and RSS), bytes on disk, tiers loaded, date, load before and after, and
# the command (scripts/sector-record.sh; a run's own output,
# OUT/placement-run.{json,err}, is removed when it succeeded, and kept when
# it failed). Defaults: n=9, sym,swap,
# DB $MORRIS_DB (no default: -d or MORRIS_DB is needed), OUT
# results/big/morris9s, --max-memory 20G,
# 2 threads, the timing build (BIN= to change). -l N: stop after N tiers;
# -t T: solve only the tiers numbered T and up (e.g. one hand count); T
# may be a tier's name too ("5-5-hand0-1": 5 and 5 stones on the board,
# 0 and 1 in hand, as games/morris.c names its placement tiers).
# LOCK_BUDGET=S: stop before a tier once the locked runs have taken S
# seconds of wall time in all; NOLOCK=1 when the caller holds the lock.
# DRY_RUN=1 prints each tier's command instead of running it (no records).
# The tiers, their names, slots and files come from bin/tier-plan SPEC
# --list (scripts/morris/common.sh, morris_tiers; TIER_PLAN= to change),
# so this script does not re-derive games/morris.c's numbering.
set -eu
. "$(dirname "$0")/common.sh"
morris_series_defaults
limit=-1
from=0
while getopts n:v:d:o:m:l:t: opt; do
    morris_opt "$opt" "${OPTARG:-}" && continue
    case "$opt" in
    l) limit=$OPTARG ;;
    t) from=$OPTARG ;;
    *) exit 2 ;;
    esac
done
morris_need_db
morris_points "$n" >/dev/null
spec="morris:n=$n${vopts:+,$vopts}"
morris_tiers
case "$from" in
*[!0-9]*) from=$(morris_tier "$from") ;;
esac
records="$out/placement.jsonl"
if [ "${DRY_RUN:-0}" != 1 ]; then
    mkdir -p "$out" "$db"
    touch "$records"
fi
# Every placement tier (its name W-B-handWH-BH: stones on the board, then
# in hand) with its slots and file, in the order above: by stones in hand
# (white's and black's together), fewest first, which is black's last
# placement first; slots ascending within one hand count.
plan=$(mktemp)
trap 'rm -f "$plan"' EXIT
printf '%s\n' "$tier_list" | awk '
    $2 ~ /^[0-9]+-[0-9]+-hand[0-9]+-[0-9]+$/ {
        split($2, f, "-"); sub(/^hand/, "", f[3])
        print f[3] + f[4], $3, $1, f[3], f[4], f[1], f[2], $2, $5
    }' | sort -k1,1n -k2,2n -k3,3n >"$plan"
[ -s "$plan" ] || {
    echo "scripts/morris/placement-solve.sh: no placement tiers in $tier_plan $spec --list" >&2
    exit 1
}
used=0
done_now=0
while read -r _inhand slots tier wh bh wb bb name file; do
    [ "$tier" -ge "$from" ] || continue
    file="$db/$file"
    if [ -f "$file" ] && grep -q "^{\"tier\":$tier," "$records"; then
        continue
    fi
    if [ "$limit" -ge 0 ] && [ "$done_now" -ge "$limit" ]; then
        break
    fi
    if [ "${DRY_RUN:-0}" = 1 ]; then
        echo "tier $tier $name: $bin $spec --solver tier:sector=$tier --threads 2 --json --max-memory $mem --db $db"
        done_now=$((done_now + 1))
        continue
    fi
    if [ -n "${LOCK_BUDGET:-}" ] && [ "$used" -ge "$LOCK_BUDGET" ]; then
        echo "scripts/morris/placement-solve.sh: lock budget spent (${used} s of ${LOCK_BUDGET} s); stopping before tier $tier" >&2
        exit 0
    fi
    cmd="$bin $spec --solver tier:sector=$tier --threads 2 --json --max-memory $mem --db $db"
    id=$(jq -cn --argjson tier "$tier" --arg name "$name" --arg hands "$wh-$bh" --arg board "$wb-$bb" \
        --argjson slots "$slots" '{tier: $tier, name: $name, hands: $hands, board: $board, slots: $slots}')
    # shellcheck disable=SC2086 # the command's words
    "$(dirname "$0")/../sector-record.sh" "$records" "$id" "$file" $cmd
    used=$((used + $(tail -n 1 "$records" | jq .wall_seconds | cut -d. -f1) + 1))
    done_now=$((done_now + 1))
done <"$plan"
