#!/bin/sh
# scripts/journal-summary.sh JOURNAL: what a `--verify --journal JOURNAL`
# run (docs/database.md, "Resuming a verification") has passed so far, in
# one line: the tiers passed (each tier's last line counts, as the verify
# reads them), the lines (more when a resumed run checked a tier again),
# the positions of those tiers, and the wall and CPU seconds of their
# checks, summed over the tiers' last lines; then the tiers themselves,
# lowest number first. Reads the journal only (a run may be appending to
# it: a last line without its newline is left out, as the verify does).
# Exit 2 when JOURNAL is not a verify journal.
#   scripts/journal-summary.sh results/big/baghchal5/placement-verify-1.journal
set -eu
[ $# = 1 ] || { echo "usage: scripts/journal-summary.sh JOURNAL" >&2; exit 2; }
j=$1
[ -f "$j" ] || { echo "journal-summary.sh: no file '$j'" >&2; exit 2; }
head -n 1 "$j" | grep -q '^gamesman-verify-journal ' ||
    { echo "journal-summary.sh: '$j' is not a verify journal (its first line)" >&2; exit 2; }
# a last line without its newline (a run stopped or still writing) is left out
whole=0
[ "$(tail -c 1 "$j" | od -An -c | tr -d ' ')" = '\n' ] && whole=1
awk -v whole="$whole" '
    NR > 1 { line[NR] = $0 }
    END {
        n = whole ? NR : NR - 1
        for (i = 2; i <= n; i++) {
            if (line[i] !~ /^tier=[0-9]+ / || line[i] !~ / end$/) continue
            lines++
            split(line[i], f, " ")
            split(f[1], t, "=")
            if (!((t[2] + 0) in last)) ids[++tiers] = t[2] + 0
            last[t[2] + 0] = line[i]
        }
        for (k = 1; k <= tiers; k++) {
            m = split(last[ids[k]], f, " ")
            for (i = 1; i <= m; i++) {
                split(f[i], kv, "=")
                if (kv[1] == "positions") pos += kv[2]
                else if (kv[1] == "wall") wall += kv[2]
                else if (kv[1] == "cpu") cpu += kv[2]
            }
        }
        for (i = 2; i <= tiers; i++) # insertion sort, lowest first
            for (k = i; k > 1 && ids[k - 1] > ids[k]; k--) { x = ids[k]; ids[k] = ids[k - 1]; ids[k - 1] = x }
        printf "%d tiers passed (%d lines), %.0f positions, %.0f s of wall and %.0f s of CPU in their checks\n",
            tiers, lines, pos, wall, cpu
        for (k = 1; k <= tiers; k++) printf "%s%d", (k > 1 ? " " : ""), ids[k]
        print ""
    }' "$j"
