#!/bin/sh
# scripts/measure/verify-vs-solve.sh PROGRESS JOURNAL: a tier database's
# --verify seconds beside its solve's, tier by tier and in total, so that
# issue 30's "--verify no slower than the solve" is checked per tier.
#   PROGRESS  the tier solve's --progress output (standard error): lines
#             `tier: reach|solve tier T (...): N/M positions, ..., S s
#             elapsed`, S the seconds since that run started; a solve in
#             several runs is their logs one after the other, each run
#             opening with a line `segment start ...` (as
#             results/big/connect4-6x6-blocks/progress-per-tier.txt has);
#   JOURNAL   the verify's journal (bin/solve --verify --journal FILE;
#             docs/database.md): per tier its CPU and wall seconds (a tier
#             journaled twice: its last line).
# A tier's solve seconds are the elapsed seconds from the line before its
# first `solve tier T` line to its last one, summed over the runs (a tier
# cut short by the end of a run, and a tier loaded from disk by a resumed
# run, count as well: time the solve spent on it); the forward pass
# (`reach` lines) is its own row. Elapsed seconds are whole seconds, so a
# tier's figure is +-1 s. Prints one line per tier (tier, positions
# verified, solve wall, verify wall and CPU, verify wall / solve wall),
# then the totals and the tiers whose verify took longer than their solve,
# and any tier whose positions differ from the forward pass's count in the
# log (a journal of another database).
# Exit 0; 2 on bad arguments or a journal without tier lines.
# Example:
#   scripts/measure/verify-vs-solve.sh results/big/connect4-6x6-blocks/progress-per-tier.txt J
set -eu
if [ $# -ne 2 ] || [ ! -f "$1" ] || [ ! -f "$2" ]; then
    echo "usage: verify-vs-solve.sh PROGRESS JOURNAL (two files)" >&2
    exit 2
fi
if ! grep -q '^tier=[0-9]* .* cpu=[0-9.]* wall=[0-9.]* end$' "$2"; then
    echo "verify-vs-solve.sh: $2 has no tier lines of a --verify journal" >&2
    exit 2
fi
awk '
    # The progress log: time since the previous line, to the tier (and
    # pass) of this line; a new run restarts the clock.
    FNR == NR {
        if ($0 ~ /^segment start/) { prev = 0; runs++; next }
        if ($0 !~ /^tier: (reach|solve) tier [0-9]+ /) next
        e = $0; sub(/ s elapsed.*/, "", e); sub(/.* /, "", e)
        pass = $2; t = $4
        if (runs == 0) runs = 1
        c = $0; sub(/ positions,.*/, "", c); sub(/.* /, "", c); split(c, nm, "/")
        if (pass == "reach" && nm[1] == nm[2]) reached[t] = nm[1]
        if (pass == "reach") reach += e - prev
        else { solve[t] += e - prev; seen[t] = 1; if (t + 0 > top) top = t + 0 }
        prev = e
        next
    }
    # The journal: the last line of each tier.
    /^tier=/ {
        for (i = 1; i <= NF; i++) {
            split($i, kv, "=")
            f[kv[1]] = kv[2]
        }
        t = f["tier"]; vwall[t] = f["wall"]; vcpu[t] = f["cpu"]; pos[t] = f["positions"]
        have[t] = 1
        if (t + 0 > top) top = t + 0
    }
    END {
        printf "%5s %14s %10s %10s %10s %8s\n", "tier", "positions", "solve s", "verify s", "verify cpu", "ratio"
        for (t = top; t >= 0; t--) {
            if (!have[t] && !seen[t]) continue
            r = solve[t] > 0 && have[t] ? sprintf("%.2f", vwall[t] / solve[t]) : "-"
            printf "%5d %14s %10d %10s %10s %8s\n", t, have[t] ? pos[t] : "-", solve[t],
                have[t] ? sprintf("%.1f", vwall[t]) : "-", have[t] ? sprintf("%.1f", vcpu[t]) : "-", r
            if (have[t]) { n++; tv += vwall[t]; tc += vcpu[t]; tp += pos[t]; ts += solve[t] }
            if (have[t] && vwall[t] > solve[t] + 1) slower = slower " " t
            if (have[t] && (t in reached) && reached[t] != pos[t]) differ = differ " " t
            st += solve[t]
        }
        printf "forward pass (reach): %d s of the solve\n", reach
        printf "solve: %d s wall over %d run(s), %d s of it in the backward pass\n", st + reach, runs, st
        printf "verify: %d tiers journaled, %s positions, %.1f s wall, %.1f s CPU\n", n, tp, tv, tc
        if (st + reach > 0) printf "verify / solve (wall): %.2f\n", tv / (st + reach)
        printf "tiers whose verify took longer than their solve (more than 1 s):%s\n", slower == "" ? " none" : slower
        if (differ != "") printf "tiers whose positions differ from the forward pass'"'"'s (another database?):%s\n", differ
    }' "$1" "$2"
