#!/bin/sh
# scripts/morris/sector-fit.sh: which mid- and endgame sectors of nine men's
# morris `tier:sector` can hold, by its own up-front check (solvers/tier/,
# sector_fits): each sector is started with a 1 MiB budget, so that the
# solve refuses at once (exit 4) and prints its estimate: the records the
# window holds at its fullest, the bitmaps, and the largest loopy pass
# before its positions are counted (its ranks, 1/8 byte a slot). No sector
# is solved; nothing is written. Takes a few seconds.
#
#   scripts/morris/sector-fit.sh [BUDGET_GIB]      (default 14)
#
# Prints a Markdown table: sector, the solver's three figures and its
# estimate, then what the solve checks only once its bitmaps exist, here
# estimated by arithmetic (not by the solver): the largest loopy tier's
# canonical positions, at 12 bytes each (solvers/tier/loopy.h,
# tier_loopy_bytes), taken as its slots: with `sym` a tier's slots are the
# index by classes (games/morris.c, morris_index_of), 1.01 to 1.24 slots a
# canonical position (docs/loopy.md), so this is an upper bound. The
# slots, and each sector's tier by its name W-B, come from bin/tier-plan
# SPEC --list (scripts/morris/common.sh, morris_tiers; TIER_PLAN= to
# change); the largest loopy tier of sector W-B's
# closure is the largest sector W'-B' with 3 <= W' <= W, 3 <= B' <= B.
# Then the total, and whether it fits BUDGET_GIB. Uses bin/solve (BIN= to
# change). VOPTS (default sym) are the variant's options: with sym,swap
# (the colour swap, games/morris.c) the sectors are Gasser's 28, W >= B.
set -eu
. "$(dirname "$0")/common.sh"
budget=${1:-14}
bin=${BIN:-bin/solve}
est=$(mktemp)
trap 'rm -f "$est"' EXIT
vopts=${VOPTS:-sym}
swap=0
case ",$vopts," in
*,swap,*) swap=1 ;;
esac
spec="morris:n=9,$vopts"
morris_tiers
printf '%s\n' "$tier_list" >"$est"
printf '| sector | records | bitmaps | loopy pass (ranks) | solver estimate | loopy pass positions (est.) | total (est.) | fits %s GiB |\n' "$budget"
printf '|---|---|---|---|---|---|---|---|\n'
for w in 3 4 5 6 7 8 9; do
    for b in 3 4 5 6 7 8 9; do
        [ "$w" -le "$b" ] || continue # B-W needs what W-B needs (the colour swap)
        name="$w-$b"
        [ "$w" = "$b" ] || name="$w-$b, $b-$w"
        sw=$w
        sb=$b
        if [ "$swap" = 1 ]; then # the sector with more white stones holds both
            sw=$b
            sb=$w
            name="$sw-$sb"
        fi
        t=$(morris_tier "$sw-$sb")
        rc=0
        msg=$("$bin" "$spec" --solver "tier:sector=$t" --max-memory 1M 2>&1) || rc=$?
        if [ "$rc" != 4 ]; then
            echo "scripts/morris/sector-fit.sh: sector $w-$b: unexpected exit $rc: $msg" >&2
            exit 1
        fi
        echo "$msg" | sed -n 's/.*(records \([^,]*\), bitmaps \([^,]*\), loopy pass \([^;]*\) before its positions are counted;.*needs an estimated \([0-9.]* [KMG]iB\).*/\1|\2|\3|\4/p' |
            awk -F'|' -v n="$name" -v B="$budget" -v W="$sw" -v Bl="$sb" -v est="$est" '
                function bytes(s,    e) { split(s, e, " "); return e[1] * (e[2] == "GiB" ? 2^30 : e[2] == "MiB" ? 2^20 : 2^10) }
                function size(x) { return x >= 2^30 ? sprintf("%.1f GiB", x / 2^30) : sprintf("%.1f MiB", x / 2^20) }
                BEGIN { while ((getline line < est) > 0) { split(line, f, " "); if (f[2] ~ /^[0-9]+-[0-9]+$/) slots[f[2]] = f[3] } }
                {
                    L = 0
                    for (a = 3; a <= W; a++) for (c = 3; c <= Bl; c++) {
                        s = slots[a "-" c]; if (s + 0 > L) L = s
                    }
                    pos = L * 12
                    tot = bytes($4) + pos
                    printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", n, $1, $2, $3, $4, size(pos),
                        size(tot), (tot <= B * 2^30 ? "yes" : "no")
                }'
    done
done
