#!/bin/sh
# scripts/measure/mpi-bench.sh [OUT] [GAME...]: the distributed tier solver's
# measurements (docs/scaling.md): for each Connect Four variant, one run of
# each shape in RUNS (default: 1 rank x 2 threads, 2 ranks x 1 thread with
# whole tiers on every rank, 2 ranks x 1 thread with tier:sliced), one at a
# time, with the timing build (STATS=0) of bin/solve-mpi and MEM_PER_RANK
# (default 3G) of memory per rank. Appends one JSON object per run to OUT
# (default /tmp/mpi-bench.jsonl): the date, `uptime`'s load before and after
# and the command beside the solver's own JSON (wall time, solver_stats:
# bytes exchanged, seconds in MPI and computing) and every rank's peak
# resident set (rank_maxrss_kb, from /usr/bin/time, in rank order of
# finishing).
#
#   make build/mpitiming/bin/solve && flock "${BENCH_LOCK:-/tmp/gamesman-bench.lock}" \
#       scripts/measure/mpi-bench.sh /tmp/mpi.jsonl connect4:w=6,h=4 connect4:w=5,h=5
#   RUNS="2:1:tier:sliced,rma" scripts/measure/mpi-bench.sh ...    # RANKS:THREADS:SOLVER ...
#   REPEAT=3 scripts/measure/mpi-bench.sh ...    # every run 3 times, in turn
set -eu
out=${1:-/tmp/mpi-bench.jsonl}
[ $# -gt 0 ] && shift
games=${*:-connect4:w=6,h=4 connect4:w=5,h=5}
bin=${SOLVE_MPI:-build/mpitiming/bin/solve}
mem=${MEM_PER_RANK:-3G}
runs=${RUNS:-1:2:tier 2:1:tier 2:1:tier:sliced}
repeat=${REPEAT:-1}
err=$(mktemp)
rssf=$(mktemp)
trap 'rm -f "$err" "$rssf"' EXIT
for game in $games; do
    for run in $(for _ in $(seq "$repeat"); do echo $runs; done); do
        ranks=${run%%:*} rest=${run#*:}
        threads=${rest%%:*} solver=${rest#*:}
        cmd="mpirun --allow-run-as-root --oversubscribe --bind-to none -np $ranks"
        # each rank appends its line to one file (O_APPEND: one write each;
        # on a shared stderr the ranks' characters could interleave)
        cmd="$cmd /usr/bin/time -a -o $rssf -f rank_maxrss_kb=%M $bin $game"
        cmd="$cmd --solver $solver --threads $threads --max-memory $mem --json"
        start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
        load0=$(cut -d' ' -f1-3 /proc/loadavg)
        t0=$(date +%s.%N)
        : >"$rssf"
        json=$($cmd 2>"$err")
        t1=$(date +%s.%N)
        load1=$(cut -d' ' -f1-3 /proc/loadavg)
        rss=$(grep -o 'rank_maxrss_kb=[0-9]*' "$rssf" | sed 's/.*=//' | paste -sd, -)
        echo "$json" | jq -c --arg date "$start" --arg cmd "$cmd" --arg l0 "$load0" \
            --arg l1 "$load1" --argjson ranks "$ranks" --argjson threads "$threads" \
            --arg solver "$solver" --argjson rss "[$rss]" \
            --arg outer "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" \
            '{date: $date, command: $cmd, load_before: $l0, load_after: $l1, ranks: $ranks,
              threads: $threads, solver: $solver, mpirun_seconds: ($outer | tonumber),
              rank_maxrss_kb: $rss, game, variant, value, positions, db_checksum,
              wall_seconds, peak_rss_bytes, solver_stats}' >>"$out"
        tail -n 1 "$out"
    done
done
