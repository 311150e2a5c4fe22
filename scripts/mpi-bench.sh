#!/bin/sh
# scripts/mpi-bench.sh [OUT] [GAME...]: the distributed tier solver's
# measurements (docs/scaling.md): for each Connect Four variant, one rank
# with 2 threads against 2 ranks with 1 thread each, one run at a time, with
# the timing build (STATS=0) of bin/solve-mpi and 3G of memory per rank
# (6G in all). Appends one JSON object per run to OUT (default
# /tmp/mpi-bench.jsonl), with the date, `uptime`'s load and the command
# beside the solver's own JSON (wall time, solver_stats: bytes exchanged,
# seconds in MPI and computing, peak RSS of the largest rank).
#
#   make build/mpitiming/bin/solve && scripts/mpi-bench.sh /tmp/mpi.jsonl \
#       connect4:w=6,h=4 connect4:w=5,h=5
set -eu
out=${1:-/tmp/mpi-bench.jsonl}
[ $# -gt 0 ] && shift
games=${*:-connect4:w=6,h=4 connect4:w=5,h=5}
bin=${SOLVE_MPI:-build/mpitiming/bin/solve}
mem=${MEM_PER_RANK:-3G}
for game in $games; do
    for shape in "1 2" "2 1"; do
        # shellcheck disable=SC2086 # two words: ranks and threads
        set -- $shape
        ranks=$1 threads=$2
        cmd="mpirun --allow-run-as-root --oversubscribe --bind-to none -np $ranks $bin $game"
        cmd="$cmd --solver tier --threads $threads --max-memory $mem --json"
        start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
        load0=$(cut -d' ' -f1-3 /proc/loadavg)
        t0=$(date +%s.%N)
        json=$($cmd)
        t1=$(date +%s.%N)
        load1=$(cut -d' ' -f1-3 /proc/loadavg)
        echo "$json" | jq -c --arg date "$start" --arg cmd "$cmd" --arg l0 "$load0" \
            --arg l1 "$load1" --argjson ranks "$ranks" --argjson threads "$threads" \
            --arg outer "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" \
            '{date: $date, command: $cmd, load_before: $l0, load_after: $l1, ranks: $ranks,
              threads: $threads, mpirun_seconds: ($outer | tonumber), game, variant, value,
              positions, db_checksum, wall_seconds, peak_rss_bytes, solver_stats}' >>"$out"
        tail -n 1 "$out"
    done
done
