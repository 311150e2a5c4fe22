#!/bin/sh
# scripts/morris/sector-solve.sh: nine men's morris (or six, three) solved
# sector by sector, Gasser's way: each mid- or endgame sector (no stones in
# hand, W-B stones on the board) by `tier:sector` (solvers/tier/), its
# child sectors loaded from the database directory where earlier runs left
# them. One run per sector, each under the bench lock, timed with
# /usr/bin/time -v; the --json output, the time and the load go to OUT,
# and a line per sector to stdout (solver_stats.sector_*: the sector's own
# positions and values; the totals also count the sectors below it).
#
#   scripts/morris/sector-solve.sh [-n 9] [-v sym] [-d DB] [-o OUT] [-m 14G] W-B ...
#
# e.g. scripts/morris/sector-solve.sh 3-3 3-4 4-3 4-4   (in order of size:
# scripts/morris/sectors.sh). Defaults: n=9, variant options "sym" (one
# position per class of the board's 16 symmetries, as Gasser counted),
# DB $MORRIS_DB (no default: -d or MORRIS_DB is needed), OUT
# results/big/morris9, --max-memory 14G,
# 2 threads, the timing build (make build/timing/bin/solve). NOLOCK=1 when
# the caller already holds the bench lock for the whole series.
# LOCK_BUDGET=S: stop (exit 0, with a line on stderr) before a sector once
# the series' locked runs have taken S seconds of wall time in all (the
# lock is taken per sector, so others' runs interleave between sectors).
#
# With -v sym,swap (the colour swap, games/morris.c), sector W-B holds
# B-W's positions too and W-W half of its own: Gasser's 28 sectors, W >= B;
# a W < B sector is refused (solve B-W).
#
# Sector W-B is the tier games/morris.c names W-B (no stones in hand, W
# white and B black stones on the board), found by name in bin/tier-plan
# SPEC --list (scripts/morris/common.sh, morris_tier; TIER_PLAN= to change
# the tier-plan), with its file; a name the variant does not have is
# refused (exit 2) before anything runs. DRY_RUN=1 prints each sector's
# command instead of running it.
set -eu
. "$(dirname "$0")/common.sh"
n=9
vopts=sym
db=${MORRIS_DB:-}
out=results/big/morris9
mem=14G
bin=${BIN:-build/timing/bin/solve}
while getopts n:v:d:o:m: opt; do
    morris_opt "$opt" "${OPTARG:-}" || exit 2
done
shift $((OPTIND - 1))
morris_need_db
morris_points "$n" >/dev/null
spec="morris:n=$n${vopts:+,$vopts}"
morris_tiers
# Every sector checked before the first run: a name W-B the variant has.
for s in "$@"; do
    if ! echo "$s" | grep -Eq '^[0-9]+-[0-9]+$'; then
        echo "scripts/morris/sector-solve.sh: '$s' is not a sector W-B (placement tiers: scripts/morris/placement-solve.sh)" >&2
        exit 2
    fi
    morris_tier "$s" >/dev/null
    w=${s%-*}
    b=${s#*-}
    case ",$vopts," in
    *,swap,*)
        if [ "$w" -lt "$b" ]; then
            echo "scripts/morris/sector-solve.sh: with swap, sector $s is the colour twin of $b-$w: solve $b-$w" >&2
            exit 2
        fi
        ;;
    esac
done
[ "${DRY_RUN:-0}" = 1 ] || mkdir -p "$out" "$db"
used=0
for s in "$@"; do
    if [ -n "${LOCK_BUDGET:-}" ] && [ "$used" -ge "$LOCK_BUDGET" ]; then
        echo "scripts/morris/sector-solve.sh: lock budget spent (${used} s of ${LOCK_BUDGET} s); stopping before $s" >&2
        exit 0
    fi
    tier=$(morris_tier "$s")
    base="$out/sector-$s"
    cmd="$bin $spec --solver tier:sector=$tier --threads 2 --json --max-memory $mem --db $db"
    if [ "${DRY_RUN:-0}" = 1 ]; then
        echo "sector $s: $cmd"
        continue
    fi
    # NOLOCK=1: the caller holds the bench lock for the whole series already.
    # shellcheck disable=SC2086 # the command's words
    "$(dirname "$0")/../locked-run.sh" "$base" $cmd || {
        echo "sector $s: failed, see $base.err" >&2
        exit 1
    }
    after=$(cut -d' ' -f1-3 /proc/loadavg)
    used=$((used + $(jq .wall_seconds "$base.json" | cut -d. -f1) + 1))
    disk=$(stat -c %s "$db/$(morris_tier "$s" 5)")
    {
        printf 'command=%s\n' "$cmd"
        cat "$base.meta"
        printf 'load_after=%s\ndisk_bytes=%s\n' "$after" "$disk"
    } >"$base.txt"
    rm -f "$base.meta"
    jq -c --arg s "$s" --arg disk "$disk" \
        '{sector: $s, sector_positions: .solver_stats.sector_positions, sector_wins: .solver_stats.sector_wins, sector_losses: .solver_stats.sector_losses, sector_draws: .solver_stats.sector_draws, positions, wall_seconds, peak_bytes, peak_rss_bytes, disk_bytes: ($disk | tonumber), tiers_solved: .solver_stats.tiers_solved, tiers_loaded: .solver_stats.tiers_loaded}' \
        "$base.json"
done
