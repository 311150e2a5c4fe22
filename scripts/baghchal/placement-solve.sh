#!/bin/sh
# scripts/baghchal/placement-solve.sh: Bagh Chal's placement tiers (goats
# still in hand) solved one by one over the sliding phase
# (scripts/baghchal/sliding-solve.sh), each by `tier:sector=T`
# (solvers/tier/) over every position of the tier, its child tiers loaded
# from the database directory where earlier runs left them (only the
# children: the walk stops at a tier on disk), so that the whole game is
# solved strongly tier by tier and each tier has its own record. The
# order respects the moves (games/baghchal.c names the placement tiers
# handH-capC-S: H goats in hand, C captured, S the side to move): a goat's
# placement leads from (H, C, G) to (H - 1, C, T) or, from H = 1, to the
# sliding tier of C captures; a tiger's move from (H, C, T) to (H, C, G) or
# (H, C + 1, G). So the hands go from 1 up to the goats' number, and in
# each hand the goats' tiers come before the tigers'. A tier whose record
# is in OUT/placement.jsonl and whose file is in DB is skipped, so the
# series resumes where it stopped (a run killed in a tier loses that
# tier's run only).
#
#   scripts/baghchal/placement-solve.sh [-n 5] [-v sym] [-d DB] [-o OUT] [-m 16G] [-l N]
#
# Each tier is one run under the bench lock (scripts/sector-record.sh):
# one JSON line in OUT/placement.jsonl with the tier, its name, hand,
# captures and side, slots, its positions by value, the initial position's
# value (tier 0), wall and CPU seconds, peaks, bytes on disk, the date, the
# load and the command. Defaults: n=5 (its 20 goats and 5 captures), sym,
# DB $BAGHCHAL_DB (no default: -d or BAGHCHAL_DB is needed; it must hold
# the sliding tiers already), OUT results/big/baghchal5, --max-memory 16G,
# 2 threads, the timing build (BIN= to change). -l N: stop after N tiers.
# LOCK_BUDGET=S: stop before a tier once the runs have taken S seconds of
# wall time in all; NOLOCK=1 when the caller holds the lock; DRY_RUN=1
# prints each tier's command instead. The tiers, names, slots and files
# come from bin/tier-plan SPEC --list (scripts/series.sh, series_tiers;
# TIER_PLAN= to change), so this
# script does not re-derive games/baghchal.c's numbering.
set -eu
. "$(dirname "$0")/../series.sh"
series_defaults baghchal
limit=-1
while getopts n:v:d:o:m:l: opt; do
    series_opt "$opt" "${OPTARG:-}" && continue
    case "$opt" in
    l) limit=$OPTARG ;;
    *) exit 2 ;;
    esac
done
me=scripts/baghchal/placement-solve.sh
series_need_db
spec="baghchal:n=$n${vopts:+,$vopts}"
series_tiers
records="$out/placement.jsonl"
plan=$(mktemp)
trap 'rm -f "$plan"' EXIT
# Every placement tier: hand, side (0 the goats, 1 the tigers), captures,
# number, name, slots, file; in the order above.
printf '%s\n' "$tier_list" | awk '
    $2 ~ /^hand[0-9]+-cap[0-9]+-[GT]$/ {
        split($2, f, "-"); sub(/^hand/, "", f[1]); sub(/^cap/, "", f[2])
        print f[1], (f[3] == "T"), f[2], $1, $2, $3, $5
    }' | sort -k1,1n -k2,2n -k3,3n >"$plan"
[ -s "$plan" ] || { echo "$me: no placement tiers in $tier_plan $spec --list" >&2; exit 1; }
if [ "${DRY_RUN:-0}" != 1 ]; then
    mkdir -p "$out" "$db"
    touch "$records"
fi
used=0
done_now=0
while read -r hand side cap tier name slots file; do
    file="$db/$file"
    if [ -f "$file" ] && [ -f "$records" ] && grep -q "^{\"tier\":$tier," "$records"; then
        continue
    fi
    if [ "$limit" -ge 0 ] && [ "$done_now" -ge "$limit" ]; then
        break
    fi
    cmd="$bin $spec --solver tier:sector=$tier --threads 2 --json --max-memory $mem --db $db"
    if [ "${DRY_RUN:-0}" = 1 ]; then
        echo "tier $tier $name: $cmd"
        done_now=$((done_now + 1))
        continue
    fi
    if [ -n "${LOCK_BUDGET:-}" ] && [ "$used" -ge "$LOCK_BUDGET" ]; then
        echo "$me: lock budget spent (${used} s of ${LOCK_BUDGET} s); stopping before tier $tier" >&2
        exit 0
    fi
    s=G
    [ "$side" = 0 ] || s=T
    id=$(jq -cn --argjson tier "$tier" --arg name "$name" --argjson hand "$hand" \
        --argjson captured "$cap" --arg side "$s" --argjson slots "$slots" \
        '{tier: $tier, name: $name, hand: $hand, captured: $captured, side: $side, slots: $slots}')
    # shellcheck disable=SC2086 # the command's words
    "$(dirname "$0")/../sector-record.sh" "$records" "$id" "$file" $cmd
    used=$((used + $(tail -n 1 "$records" | jq .wall_seconds | cut -d. -f1) + 1))
    done_now=$((done_now + 1))
done <"$plan"
