#!/bin/sh
# scripts/measure/c4-big.sh [BOARD...]: strong solves of the larger Connect Four
# boards with the tier solver (docs/connect-four.md, "The larger boards"),
# one at a time.
# BOARD is WxH (w columns, h rows): 4x7 5x6 4x8 7x4 6x5 (the default list).
# Each runs
#   $SOLVE connect4:w=W,h=H --solver tier:window --threads 2 \
#       --max-memory $MEM --work-dir $DIR/WxH --json
# (SOLVE=build/timing/bin/solve, MEM=8G and DIR=$TMPDIR/c4-big, or
# /tmp/c4-big, by default; the larger boards' tier files take gigabytes
# there), records the disk use of the tier files, deletes them, checks
# the position count against J. Tromp's table (tromp.github.io/c4/c4.html)
# and prints one JSON line per board with the date and the load average.
# Long: minutes to tens of minutes per board; run it in the background.
set -eu
solve=${SOLVE:-build/timing/bin/solve}
mem=${MEM:-8G}
dir=${DIR:-${TMPDIR:-/tmp}/c4-big}
[ $# -gt 0 ] || set -- 4x7 5x6 4x8 7x4 6x5
for board in "$@"; do
    w=${board%x*}
    h=${board#*x}
    # Reachable positions, Tromp's table (width x height).
    case $board in
    4x7) want=135385909 ;;
    5x6) want=1044334437 ;;
    4x8) want=1104642469 ;;
    7x4) want=2265792710 ;;
    6x5) want=2818972642 ;;
    6x4) want=94910577 ;;
    5x5) want=69763700 ;;
    *) want=null ;;
    esac
    work=$dir/$board
    rm -rf "$work"
    mkdir -p "$dir"
    start=$(date -u '+%Y-%m-%dT%H:%M:%SZ')
    load0=$(cut -d' ' -f1-3 /proc/loadavg)
    j=$("$solve" "connect4:w=$w,h=$h" --solver tier:window --threads 2 --max-memory "$mem" \
        --work-dir "$work" --json)
    load1=$(cut -d' ' -f1-3 /proc/loadavg)
    disk=$(du -sb "$work" | cut -f1)
    rm -rf "$work"
    echo "$j" | jq -c --arg b "$board" --arg start "$start" --arg l0 "$load0" --arg l1 "$load1" \
        --argjson disk "$disk" --argjson want "$want" \
        '{board: $b, value, remoteness, positions, tromp: $want,
          positions_match: (.positions == $want), wall_seconds, peak_bytes, peak_rss_bytes,
          disk_bytes: $disk, start: $start, load_before: $l0, load_after: $l1,
          threads, solver_stats}'
done
