#!/bin/sh
# scripts/mpi-model.sh CAL.jsonl [CHECK.jsonl]: calibrates bin/tier-plan's
# wall-time model (docs/scaling.md, "The model") on the runs of CAL and,
# given CHECK, compares its predictions with the runs of CHECK, which must
# be of other boards (the check stays honest: nothing is fitted to them).
# Both files are scripts/mpi-bench.sh output (one JSON object per run).
#
# From CAL (medians over the repeated runs of each board and shape, then
# the mean over the boards):
#   startup  tictactoe, 2 x 1 `tier`: mpirun's seconds minus the solver's
#            own wall (starting and ending the ranks);
#   latency  tictactoe, 2 x 1 `tier`: seconds inside MPI / (4 x 10 tiers):
#            the cost of one collective on this machine (tic-tac-toe's tiers
#            are too small to wait for anything else);
#   cost     1 x 2 `tier`: computing seconds x 2 threads / positions;
#   setup    1 x 2 `tier`: (wall - computing) / slots;
#   imbalance, imbalance-sliced
#            2 x 1 `tier` and `tier:sliced`: (wall - setup - exchange) /
#            compute, the three terms as tier-plan predicts them with the
#            parameters above and imbalance 1.
# PER_BOARD=1: cost and setup are each board's own, from its 1 x 2 `tier`
# runs (CAL's boards for the imbalance factors, CHECK's 1 x 2 runs for
# CHECK's predictions: those runs take no part in the check, which compares
# with the 2 x 1 runs only), instead of the means over CAL's boards: the
# cost per position differs from board to board (2x between 4x6 and 6x4 on a
# quiet machine), the overheads of distribution less so.
# Prints the parameters, then per board and shape of CHECK: the prediction,
# the measured runs, their median and the error of the median, for the
# solver's wall and for mpirun's whole run.
set -eu
cal=$1
check=${2:-}
here=$(dirname "$0")
plan=${TIER_PLAN:-$here/../bin/tier-plan}
med() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1
    print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mean() { awk '{ s += $1; n++ } END { if (n == 0) exit 1; printf "%.6g\n", s / n }'; }
# sel FILE GAME RANKS THREADS SOLVER EXPR: EXPR of each matching run
sel() {
    jq -r --arg g "$2" --argjson r "$3" --argjson t "$4" --arg s "$5" \
        "select(.game + (if (.variant // \"\") != \"\" then \":\" + .variant else \"\" end) == \$g)
         | select(.ranks == \$r and .threads == \$t and .solver == \$s) | $6" "$1"
}
spec() { jq -r '.game + (if (.variant // "") != "" then ":" + .variant else "" end)' "$1" |
    grep -v '^tictactoe' | sort -u; }
slots() { "$plan" "$1" --ranks 1 | sed -n 's/^tiers *[0-9]*, \([0-9]*\) slots.*/\1/p'; }
# part GAME N OPTS LINE WORD: a term of tier-plan's time line (LINE 1: tier, 2: sliced)
part() {
    # shellcheck disable=SC2086
    "$plan" "$1" --ranks "$2" $3 | grep -A1 '^time' | sed -n "$4p" |
        sed -n "s/.*$5 \([0-9.e+-]*\) s.*/\1/p"
}

startup=$(sel "$cal" tictactoe 2 1 tier '.mpirun_seconds - .wall_seconds' | med)
latency=$(sel "$cal" tictactoe 2 1 tier '.solver_stats.mpi_seconds_max / 40' | med)
boards=$(spec "$cal")
for g in $boards; do
    sel "$cal" "$g" 1 2 tier '.solver_stats.compute_seconds_max * 2 / .positions' | med
done | mean >"${TMPDIR:-/tmp}/mpi-model.$$"
cost=$(cat "${TMPDIR:-/tmp}/mpi-model.$$")
rm -f "${TMPDIR:-/tmp}/mpi-model.$$"
setup=$(for g in $boards; do
    s=$(slots "$g")
    sel "$cal" "$g" 1 2 tier "(.wall_seconds - .solver_stats.compute_seconds_max) / $s" | med
done | mean)
base="--cost $cost --latency $latency --setup $setup"
per_board=${PER_BOARD:-0}
# own FILE GAME: --cost and --setup of GAME's own 1 x 2 `tier` runs in FILE
own() {
    c=$(sel "$1" "$2" 1 2 tier '.solver_stats.compute_seconds_max * 2 / .positions' | med)
    s=$(sel "$1" "$2" 1 2 tier "(.wall_seconds - .solver_stats.compute_seconds_max) / $(slots "$2")" | med)
    echo "--cost $c --latency $latency --setup $s"
}
imb() { # SOLVER LINE
    for g in $boards; do
        p=$(sel "$cal" "$g" 1 2 tier '.positions' | head -n 1)
        b=$base
        [ "$per_board" = 1 ] && b=$(own "$cal" "$g")
        o="$b --positions $p"
        su=$(part "$g" 2 "$o" "$2" setup)
        co=$(part "$g" 2 "$o" "$2" compute)
        ex=$(part "$g" 2 "$o" "$2" exchange)
        sel "$cal" "$g" 2 1 "$1" "(.wall_seconds - $su - $ex) / $co" | med
    done | mean
}
imbalance=$(imb tier 1)
imbalance_sliced=$(imb tier:sliced 2)
echo "calibrated on: $(echo "$boards" | tr '\n' ' ')and tictactoe ($cal)"
rest="--imbalance $imbalance --imbalance-sliced $imbalance_sliced --startup $startup"
params="$base $rest"
if [ "$per_board" = 1 ]; then
    echo "parameters: $rest, --latency $latency; cost and setup each board's own:"
    for g in $boards; do echo "  $g (CAL): $(own "$cal" "$g")"; done
else
    echo "parameters: $params"
fi
[ -n "$check" ] || exit 0
echo
echo "| board, 2 x 1 | solver | predicted s | measured s (median) | error | mpirun predicted s | mpirun measured s (median) | error |"
echo "|---|---|---|---|---|---|---|---|"
for g in $(spec "$check"); do
    p=$(sel "$check" "$g" 2 1 tier '.positions' | head -n 1)
    if [ "$per_board" = 1 ]; then
        params="$(own "$check" "$g") $rest"
        echo "  $g (CHECK's 1 x 2 runs): $(own "$check" "$g")" >&2
    fi
    for solver in tier tier:sliced; do
        line=1
        [ "$solver" = tier:sliced ] && line=2
        # shellcheck disable=SC2086
        pred=$("$plan" "$g" --ranks 2 $params --positions "$p" | grep -A1 '^time' |
            sed -n "${line}p" | sed -n 's/^[^0-9]*\([0-9.e+-]*\) s predicted.*/\1/p')
        walls=$(sel "$check" "$g" 2 1 "$solver" '.wall_seconds')
        outer=$(sel "$check" "$g" 2 1 "$solver" '.mpirun_seconds')
        [ -n "$walls" ] || continue
        mw=$(echo "$walls" | med)
        mo=$(echo "$outer" | med)
        awk -v g="$g" -v s="$solver" -v p="$pred" -v w="$mw" -v o="$mo" -v su="$startup" \
            -v ws="$(echo "$walls" | awk '{ printf "%.3g\n", $1 }' | paste -sd, - | sed 's/,/, /g')" \
            -v os="$(echo "$outer" | awk '{ printf "%.3g\n", $1 }' | paste -sd, - | sed 's/,/, /g')" 'BEGIN {
            printf "| %s | `%s` | %.3g | %s; %.3g | %+.0f%% | %.3g | %s; %.3g | %+.0f%% |\n",
                g, s, p, ws, w, (p - w) / w * 100, p + su, os, o, (p + su - o) / o * 100 }'
    done
done
