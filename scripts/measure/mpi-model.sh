#!/bin/sh
# scripts/measure/mpi-model.sh CAL.jsonl [CHECK.jsonl]: calibrates bin/tier-plan's
# wall-time model of N = 2 ranks x 1 thread (docs/scaling.md, "The model")
# on the runs of CAL, chooses how to calibrate it by leave-one-out over
# CAL's boards, and, given CHECK, compares its predictions with the runs of
# CHECK, which must be of other boards (nothing is fitted to them). Both
# files are scripts/measure/mpi-bench.sh output (one JSON object per run): CAL holds
# tic-tac-toe 2 x 1 runs and, for each calibration board, its 1 x 2 `tier`
# runs and its 2 x 1 `tier` and `tier:sliced` runs; CHECK the same three
# shapes of each checked board. Every figure is a median over the repeated
# runs of a board and shape.
#
# The model, for a board B and mode M (`tier`, or `tier:sliced` with
# m = 1.5 walks of the positions per pass instead of 1):
#   wall(2 x 1) = setup_B + k_M m C_B + V_B,M / B_M + n_B,M L
#   mpirun      = wall + u
# where C_B and setup_B are the board's computing seconds and the rest of
# its wall in its own 1 x 2 run (what a researcher has before moving a solve
# to a cluster: tier-plan's --cost and --setup), V the bytes each rank
# receives and n the collectives (tier-plan's network and latency counts),
# L and u from tic-tac-toe (its seconds in MPI / its 40 collectives;
# mpirun's seconds minus the solver's own wall). k (compute of two ranks
# against the even split of one process's) and B (the exchange's bytes per
# second) come from the calibration boards by one of four estimators:
#   none      k = 1, B = 1.25 GB/s (tier-plan's defaults: nothing fitted);
#   residual  B = 1.25 GB/s, k = median of (wall - setup - V/B - n L) / (m C);
#   direct    B = 1.25 GB/s, k = median of the measured 2 x 1 computing
#             seconds (the slowest rank's) / (m C);
#   direct+B  k as direct, 1/B = median of (wall - setup - computing - n L) / V
#             (the exchange left once the measured computing is taken out).
# The estimator used is the one whose leave-one-out predictions of CAL's
# boards (each board predicted from the others) have the smallest largest
# error of mpirun's wall over both modes; the table of all four is printed.
set -eu
cal=$1
check=${2:-}
here=$(dirname "$0")
plan=${TIER_PLAN:-$here/../../bin/tier-plan}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# runs FILE: one line per run: board ranks threads solver positions wall
# mpirun computing in_mpi
runs() {
    jq -r '[.game + (if (.variant // "") != "" then ":" + .variant else "" end),
            .ranks, .threads, .solver, .positions, .wall_seconds, .mpirun_seconds,
            .solver_stats.compute_seconds_max, .solver_stats.mpi_seconds_max] | @tsv' "$1"
}
# exchange GAME LINE BANDWIDTH LATENCY: tier-plan's exchange seconds of
# `tier` (LINE 1) or `tier:sliced` (2) on 2 ranks
exchange() {
    "$plan" "$1" --ranks 2 --bandwidth "$3" --latency "$4" | grep -A1 '^time' | sed -n "$2p" |
        sed -n 's/.*exchange \([0-9.e+-]*\) s.*/\1/p'
}
# boards FILE: the table the estimators read, one line per board and mode:
# board mode m C setup wall(2x1) mpirun(2x1) computing(2x1) V n
boards() {
    runs "$1" >"$tmp/runs"
    for g in $(cut -f1 "$tmp/runs" | grep -v '^tictactoe' | sort -u); do
        for mode in tier tier:sliced; do
            line=1 m=1
            [ "$mode" = tier:sliced ] && line=2 m=1.5
            v=$(exchange "$g" $line 1 1e-30)
            n=$(exchange "$g" $line 1e30 1)
            awk -F'\t' -v g="$g" -v mode="$mode" -v m=$m -v v="$v" -v n="$n" '
                function med(a, c,   i, j, t) { # sorts a[1..c], returns the median
                    for (i = 2; i <= c; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
                        t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
                    return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2 }
                $1 == g && $2 == 1 && $3 == 2 && $4 == "tier" { c1[++n1] = $8; s1[n1] = $6 - $8 }
                $1 == g && $2 == 2 && $3 == 1 && $4 == mode { w2[++n2] = $6; o2[n2] = $7; c2[n2] = $8 }
                END { if (n1 == 0 || n2 == 0) exit
                    printf "%s\t%s\t%s\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\n", g, mode, m,
                        med(c1, n1), med(s1, n1), med(w2, n2), med(o2, n2), med(c2, n2), v, n }' "$tmp/runs"
        done
    done
}

runs "$cal" >"$tmp/cal-runs"
latency=$(awk -F'\t' '$1 == "tictactoe" && $2 == 2 && $3 == 1 && $4 == "tier" { print $9 / 40 }' \
    "$tmp/cal-runs" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
startup=$(awk -F'\t' '$1 == "tictactoe" && $2 == 2 && $3 == 1 && $4 == "tier" { print $7 - $6 }' \
    "$tmp/cal-runs" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
[ -n "$latency" ] && [ -n "$startup" ] || {
    echo "mpi-model: $cal has no tic-tac-toe 2 x 1 tier runs (L and u come from them)" >&2
    exit 2
}
boards "$cal" >"$tmp/cal"
[ -s "$tmp/cal" ] || {
    echo "mpi-model: $cal has no board with both 1 x 2 and 2 x 1 runs" >&2
    exit 2
}
if [ -n "$check" ]; then
    boards "$check" >"$tmp/check"
fi

# The estimators, leave-one-out over CAL, the choice and the check, in awk.
awk -F'\t' -v L="$latency" -v u="$startup" -v have_check="$check" '
function med(a, c,   i, j, t) {
    for (i = 2; i <= c; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
        t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2 }
# fit(E, mode, skip): sets K and IB (1/B) of estimator E from the CAL boards
# of mode other than skip
function fit(e, mode, skip,   i, c, ks, ibs) {
    K = 1; IB = 1 / 1.25e9; c = 0
    if (e == "none") return
    for (i = 1; i <= nc; i++) {
        if (cmode[i] != mode || cboard[i] == skip) continue
        c++
        if (e == "residual") ks[c] = (cw[i] - cs[i] - cv[i] * IB - cn[i] * L) / (cm[i] * cc[i])
        else ks[c] = cc2[i] / (cm[i] * cc[i])
        ibs[c] = (cw[i] - cs[i] - cc2[i] - cn[i] * L) / cv[i]
        if (ibs[c] < 0) ibs[c] = 0
    }
    if (c == 0) return
    K = med(ks, c)
    if (e == "direct+B") IB = med(ibs, c)
}
function predict(m, c, s, v, n) { return s + K * m * c + v * IB + n * L }
BEGIN { ne = split("none residual direct direct+B", est, " ") }
FILENAME == ARGV[1] { nc++; cboard[nc] = $1; cmode[nc] = $2; cm[nc] = $3; cc[nc] = $4; cs[nc] = $5
    cw[nc] = $6; co[nc] = $7; cc2[nc] = $8; cv[nc] = $9; cn[nc] = $10; next }
{ nk++; kb[nk] = $1; kmode[nk] = $2; km[nk] = $3; kc[nk] = $4; ks_[nk] = $5
  kw[nk] = $6; ko[nk] = $7; kc2[nk] = $8; kv[nk] = $9; kn[nk] = $10 }
END {
    printf "L (latency) %.4g s, u (startup) %.4g s: tic-tac-toe 2 x 1 tier, medians\n\n", L, u
    print "Leave-one-out over the calibration boards (each predicted from the others; error of mpirun'"'"'s wall):"
    print ""
    printf "| board, 2 x 1 | solver | measured mpirun s |"
    for (j = 1; j <= ne; j++) printf " %s |", est[j]
    printf "\n|---|---|---|"
    for (j = 1; j <= ne; j++) printf "---|"
    printf "\n"
    for (i = 1; i <= nc; i++) {
        printf "| %s | `%s` | %.3g |", cboard[i], cmode[i], co[i]
        for (j = 1; j <= ne; j++) {
            fit(est[j], cmode[i], cboard[i])
            p = predict(cm[i], cc[i], cs[i], cv[i], cn[i]) + u
            err = (p - co[i]) / co[i] * 100
            printf " %+.0f%% |", err
            if (err < 0) err = -err
            if (err > worst[j]) worst[j] = err
        }
        printf "\n"
    }
    printf "| largest error | | |"
    best = 1
    for (j = 1; j <= ne; j++) {
        printf " %.0f%% |", worst[j]
        if (worst[j] < worst[best]) best = j
    }
    printf "\n\nchosen: %s\n", est[best]
    for (mi = 1; mi <= 2; mi++) {
        mode = mi == 1 ? "tier" : "tier:sliced"
        fit(est[best], mode, "")
        printf "  %s: k %.4g, B %.4g GB/s (all calibration boards)\n", mode, K, 1 / IB / 1e9
    }
    if (have_check == "") exit
    print ""
    print "| board, 2 x 1 | solver | k | B GB/s | predicted s | measured s (median) | error | mpirun predicted s | mpirun measured s (median) | error |"
    print "|---|---|---|---|---|---|---|---|---|---|"
    for (i = 1; i <= nk; i++) {
        fit(est[best], kmode[i], "")
        p = predict(km[i], kc[i], ks_[i], kv[i], kn[i])
        printf "| %s | `%s` | %.3g | %.3g | %.3g | %.3g | %+.0f%% | %.3g | %.3g | %+.0f%% |\n",
            kb[i], kmode[i], K, 1 / IB / 1e9, p, kw[i], (p - kw[i]) / kw[i] * 100,
            p + u, ko[i], (p + u - ko[i]) / ko[i] * 100
    }
}' "$tmp/cal" ${check:+"$tmp/check"}
