#!/bin/bash
# scripts/bench-summary.sh RESULTS_DIR: the summary table of a benchmark run
# (game, solver, positions, unhash calls, time, peak memory, and the
# counted build's time relative to the timing build's), from bench.json
# through scripts/bench-rows.jq.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: scripts/bench-summary.sh RESULTS_DIR}
jq -r --arg fmt tsv -f "$here/bench-rows.jq" "$dir/bench.json" | awk -F'\t' '
    function human(b) {
        if (b == "") return "-"
        split("B KiB MiB GiB TiB", u, " ")
        for (i = 1; b >= 1024 && i < 5; i++) b /= 1024
        return i == 1 ? sprintf("%d B", b) : sprintf("%.1f %s", b, u[i])
    }
    function secs(t) {
        if (t == "") return "-"
        if (t < 1e-3) return sprintf("%.1f us", t * 1e6)
        if (t < 1) return sprintf("%.2f ms", t * 1e3)
        return sprintf("%.2f s", t)
    }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
        game = $c["variant"] == "" ? $c["game"] : $c["game"] ":" $c["variant"]
        solver = $c["threads"] == "" ? $c["solver"] : $c["solver"] " x" $c["threads"]
        if ($c["error"] != "") {
            printf "%-26s %-22s  error: %s\n", game, solver, $c["error"]
            next
        }
        over = $c["count_overhead"] == "" ? "-" : sprintf("%.2f", $c["count_overhead"])
        printf "%-26s %-22s %12s %14s %11s %11s %9s\n", game, solver,
            $c["positions"] == "" ? "-" : $c["positions"], $c["unhash"], secs($c["time_s"]),
            human($c["peak_bytes"]), over
    }' | { printf "%-26s %-22s %12s %14s %11s %11s %9s\n" game solver positions unhash time \
           memory counted; cat; }
echo "(time: mean wall time of a solve in the timing build; memory: jemalloc peak;"
echo " counted: fastest solve of the counting build / of the timing build; $dir/bench.csv)"
