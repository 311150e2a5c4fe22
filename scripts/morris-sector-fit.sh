#!/bin/sh
# scripts/morris-sector-fit.sh: which mid- and endgame sectors of nine men's
# morris `tier:sector` can hold, by its own up-front check (solvers/tier.c,
# sector_fits): each sector is started with a 1 MiB budget, so that the
# solve refuses at once and prints its estimate (the records the window
# holds, the bitmaps, and the loopy pass before its positions are counted:
# its ranks) or the 2^31-slot limit. No sector is solved; nothing is
# written. Takes a second.
#
#   scripts/morris-sector-fit.sh [BUDGET_GIB]      (default 14)
#
# Prints a Markdown table: sector, estimate, and whether it fits BUDGET_GIB
# (the loopy pass's 10 bytes a canonical position come on top, checked by
# the solve once its bitmaps exist: about 5/8 byte a slot with sym). Uses
# bin/solve (BIN= to change).
set -eu
budget=${1:-14}
bin=${BIN:-bin/solve}
printf '| sector | records | bitmaps | loopy pass (ranks) | estimate | fits %s GiB |\n' "$budget"
printf '|---|---|---|---|---|---|\n'
for w in 3 4 5 6 7 8 9; do
    for b in 3 4 5 6 7 8 9; do
        [ "$w" -le "$b" ] || continue # B-W needs what W-B needs (the colour swap)
        t=$((615 + 10 * w + b))       # scripts/morris-sector-solve.sh
        rc=0
        msg=$("$bin" morris:n=9,sym --solver tier:sector=$t --max-memory 1M 2>&1) || rc=$?
        name="$w-$b"
        [ "$w" = "$b" ] || name="$w-$b, $b-$w"
        case "$rc" in
        4)
            echo "$msg" | sed -n 's/.*(records \([^,]*\), bitmaps \([^,]*\), loopy pass \([^;]*\) before its positions are counted;.*needs an estimated \([0-9.]* [KMG]iB\).*/\1|\2|\3|\4/p' |
                awk -F'|' -v n="$name" -v B="$budget" '{
                    split($4, e, " "); g = e[1] / (e[2] == "GiB" ? 1 : e[2] == "MiB" ? 1024 : 1048576)
                    printf "| %s | %s | %s | %s | %s | %s |\n", n, $1, $2, $3, $4, g <= B ? "yes" : "no"
                }'
            ;;
        7)
            slots=$(echo "$msg" | sed -n 's/.*has \([0-9]*\) slots.*/\1/p')
            lt=$(($(echo "$msg" | sed -n 's/.*: tier \([0-9]*\) has.*/\1/p') - 615))
            printf '| %s | | | | | no: sector %s (in its closure) has %s slots, over 2^31 |\n' \
                "$name" "$((lt / 10))-$((lt % 10))" "$slots"
            ;;
        *)
            echo "morris-sector-fit.sh: sector $w-$b: unexpected exit $rc: $msg" >&2
            exit 1
            ;;
        esac
    done
done
