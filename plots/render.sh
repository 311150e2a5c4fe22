#!/bin/bash
# plots/render.sh RESULTS_DIR OUT_DIR: renders the benchmark plots of one run.
#
# Reads RESULTS_DIR/bench.json (bin/bench's Google Benchmark JSON) through
# scripts/bench-rows.jq, the program that writes RESULTS_DIR/bench.csv, into
# the same rows as tab-separated text; arranges them per plot with awk; and
# runs the gnuplot scripts beside this file, each to PNG and SVG in OUT_DIR:
#
#   calls     (a) unhash and hash calls per solver per game, log scale
#   time      (b) wall time of a solve per solver per game, log scale
#   memory    (c) jemalloc peak bytes per solver per game, log scale
#   growth-S  (d) time and memory against positions along series S, log-log
#   speedup   (e) parallel solvers: speed-up against threads, from a board
#             that takes seconds: RESULTS_DIR/speedup.json (the speed-up
#             run of scripts/bench-run.sh, with repetitions: the mean and
#             the extreme ratios) when there is one, else the rows of
#             bench.json whose solve at the fewest threads takes at least
#             1 s (one run each; none: the plot says so)
#   bytes     (f) peak bytes per position against positions on the series
#             where a symbolic solver ran, one panel per series: each
#             symbolic solver, and the range of the explicit ones
#
# Rows that failed (an error message) are left out. The per-game charts
# take, for a parallel solver run at several thread counts, its one-thread
# run (or its fewest threads).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
results=${1:?usage: plots/render.sh RESULTS_DIR OUT_DIR}
out=${2:?usage: plots/render.sh RESULTS_DIR OUT_DIR}
json="$results/bench.json"
if [ ! -r "$json" ]; then
    echo "plots/render.sh: no $json (run make bench first)" >&2
    exit 2
fi
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Column numbers of the rows (see scripts/bench-rows.jq).
jq -r --arg fmt tsv -f "$root/scripts/bench-rows.jq" "$json" >"$tmp/rows.tsv"
col() { head -n 1 "$tmp/rows.tsv" | tr '\t' '\n' | grep -n -x "$1" | cut -d: -f1; }
C_SOLVER=$(col solver) C_GAME=$(col game) C_VARIANT=$(col variant) C_THREADS=$(col threads)
C_SERIES=$(col series) C_TIME=$(col time_s) C_POS=$(col positions) C_HASH=$(col hash)
C_UNHASH=$(col unhash) C_PEAK=$(col peak_bytes) C_GPOS=$(col game_positions)
C_ERR=$(col error)
awk -F'\t' -v OFS='\t' -v e="$C_ERR" 'NR > 1 && $e == ""' "$tmp/rows.tsv" >"$tmp/ok.tsv"

# pivot COLUMN FILE: one line per game variant (in run order), one column per
# solver (in first-seen order), "-" where a solver did not run; a header line
# names the columns. Parallel solvers: the row with the fewest threads.
pivot() {
    awk -F'\t' -v OFS='\t' -v c="$1" -v s="$C_SOLVER" -v g="$C_GAME" -v v="$C_VARIANT" \
        -v t="$C_THREADS" '
        {
            spec = $v == "" ? $g : $g ":" $v
            if (!(spec in gi)) { gi[spec] = ++ng; gname[ng] = spec }
            if (!($s in si)) { si[$s] = ++ns; sname[ns] = $s }
            k = spec SUBSEP $s
            th = $t == "" ? 0 : $t + 0
            if (!(k in val) || th < best[k]) { val[k] = $c; best[k] = th }
        }
        END {
            printf "game"
            for (j = 1; j <= ns; j++) printf "\t%s", sname[j]
            printf "\n"
            for (i = 1; i <= ng; i++) {
                printf "%s", gname[i]
                for (j = 1; j <= ns; j++) {
                    k = gname[i] SUBSEP sname[j]
                    x = (k in val) && val[k] != "" && val[k] + 0 > 0 ? val[k] : "-"
                    printf "\t%s", x
                }
                printf "\n"
            }
        }' "$tmp/ok.tsv" >"$2"
    # The smallest and largest values, for the log axis.
    tail -n +2 "$2" | tr '\t' '\n' | grep -E "^[0-9][0-9.eE+-]*$" | sort -g |
        sed -n '1p;$p' | tr '\n' ' ' >"$2.range"
}

# range FILE [SUFFIX]: gnuplot assignments ymin, ymax of a pivot.
range() {
    read -r lo hi <"$1.range" || true
    echo "ymin${2:-}=${lo:-1}; ymax${2:-}=${hi:-10};"
}

pivot "$C_UNHASH" "$tmp/unhash.dat"
pivot "$C_HASH" "$tmp/hash.dat"
pivot "$C_TIME" "$tmp/time.dat"
pivot "$C_PEAK" "$tmp/memory.dat"

# Growth series: per series, one block per solver of (positions, time, peak)
# sorted by positions, blocks separated by two blank lines (gnuplot index).
series=$(awk -F'\t' -v c="$C_SERIES" '$c != "" && !seen[$c]++ {print $c}' "$tmp/ok.tsv")

# Speed-up: per (solver, game variant) run at several thread counts, one
# block: a quoted label, then "threads<TAB>speed-up<TAB>lowest<TAB>highest"
# by threads, where speed-up = mean time at the fewest threads / mean time
# at N, and lowest / highest the extreme ratios (the slowest run at the
# fewest threads over the fastest at N, and the reverse). Each Google
# Benchmark run (a repetition, or the one run) is one time.
speed_json=$json
min_base=1 # seconds at the fewest threads, when the runs are the main run's
if [ -r "$results/speedup.json" ]; then
    speed_json="$results/speedup.json"
    min_base=0
fi
jq -r '.benchmarks[] | select(.run_type == "iteration" and (.error_occurred // false) == false)
    | (.run_name | sub("/manual_time$"; "") | split("/")) as $p
    | select(($p[2] // "") | startswith("threads:"))
    | [$p[0], $p[1], ($p[2] | ltrimstr("threads:")),
       .real_time * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[.time_unit]] | @tsv' \
    "$speed_json" >"$tmp/speedruns.tsv"
awk -F'\t' -v min_base="$min_base" '
    {
        k = $1 " " $2
        if (!(k in nt)) order[++nk] = k
        if (!((k, $3 + 0) in cnt)) { nt[k]++; th[k, nt[k]] = $3 + 0 }
        c = ++cnt[k, $3 + 0]; sum[k, $3 + 0] += $4
        if (c == 1 || $4 < lo[k, $3 + 0]) lo[k, $3 + 0] = $4
        if (c == 1 || $4 > hi[k, $3 + 0]) hi[k, $3 + 0] = $4
    }
    END {
        blocks = 0
        for (i = 1; i <= nk; i++) {
            k = order[i]
            if (nt[k] < 2) continue
            # thread counts in increasing order
            for (a = 2; a <= nt[k]; a++)
                for (b = a; b > 1 && th[k, b] < th[k, b - 1]; b--) {
                    x = th[k, b]; th[k, b] = th[k, b - 1]; th[k, b - 1] = x
                }
            t0 = th[k, 1]; m0 = sum[k, t0] / cnt[k, t0]
            if (m0 < min_base) continue
            if (blocks++) printf "\n\n"
            runs = cnt[k, t0]
            for (j = 2; j <= nt[k]; j++) if (cnt[k, th[k, j]] < runs) runs = cnt[k, th[k, j]]
            printf "\"%s: %.3g s on %d thread%s, %s\"\n", k, m0, t0, t0 == 1 ? "" : "s",
                runs == 1 ? "one run each" : runs " runs each (mean; bars: extremes)"
            for (j = 1; j <= nt[k]; j++) {
                t = th[k, j]
                printf "%d\t%.6g\t%.6g\t%.6g\n", t, m0 / (sum[k, t] / cnt[k, t]),
                    lo[k, t0] / hi[k, t], hi[k, t0] / lo[k, t]
            }
        }
    }' "$tmp/speedruns.tsv" >"$tmp/speedup.dat"
nspeed=$(grep -c '^"' "$tmp/speedup.dat" || true)

machine=$(jq -r '.context.machine // .context.host_name // "unknown machine"' "$json")
date=$(jq -r '.context.date // ""' "$json" | cut -c1-16)
subtitle="$date, $machine"

render() { # SCRIPT OUTNAME [gnuplot -e assignments]
    local script=$1 name=$2
    shift 2
    for term in png svg; do
        # A solver without a value on a chart (minimax allocates nothing) is
        # in the legend only, and a series may hold one size: gnuplot's
        # warnings about an empty column or x range are noise.
        gnuplot -e "dir='$here/'; term='$term'; outfile='$out/$name.$term'; subtitle='$subtitle'; $*" \
            "$here/$script" 2>&1 |
            { grep -v -e 'Skipping data file with no valid points' -e 'empty x range' || true; } >&2
    done
    echo "plots: $out/$name.png"
}

render bars.gp calls "$(range "$tmp/unhash.dat") $(range "$tmp/hash.dat" 2) \
    datafile='$tmp/unhash.dat'; datafile2='$tmp/hash.dat'; \
    what='calls'; title1='unhash calls (positions decoded) per solve'; \
    title2='hash calls (positions encoded) per solve'; ylabel='calls (log scale)'"
render bars.gp time "$(range "$tmp/time.dat") datafile='$tmp/time.dat'; datafile2=''; what='time'; \
    title1='wall time of one solve (timing build, STATS=0)'; ylabel='seconds (log scale)'"
render bars.gp memory "$(range "$tmp/memory.dat") datafile='$tmp/memory.dat'; datafile2=''; what='memory'; \
    title1='peak memory of one solve (jemalloc; 0 bytes not drawn)'; ylabel='bytes (log scale)'"

rm -f "$out"/growth-*.png "$out"/growth-*.svg
for s in $series; do
    awk -F'\t' -v OFS='\t' -v se="$C_SERIES" -v want="$s" -v so="$C_SOLVER" -v gp="$C_GPOS" \
        -v tm="$C_TIME" -v pk="$C_PEAK" -v t="$C_THREADS" '
        $se == want && $gp != "" && ($t == "" || $t == 1) {
            if (!($so in n)) order[++ns] = $so
            n[$so]++; x[$so, n[$so]] = $gp + 0; y[$so, n[$so]] = $tm; m[$so, n[$so]] = $pk
        }
        END {
            for (i = 1; i <= ns; i++) {
                k = order[i]
                if (i > 1) printf "\n\n"
                printf "\"%s\"\n", k
                # insertion sort by positions
                for (a = 2; a <= n[k]; a++)
                    for (b = a; b > 1 && x[k, b] < x[k, b - 1]; b--) {
                        tx = x[k, b]; x[k, b] = x[k, b - 1]; x[k, b - 1] = tx
                        ty = y[k, b]; y[k, b] = y[k, b - 1]; y[k, b - 1] = ty
                        tz = m[k, b]; m[k, b] = m[k, b - 1]; m[k, b - 1] = tz
                    }
                for (j = 1; j <= n[k]; j++) printf "%s\t%s\t%s\n", x[k, j], y[k, j], m[k, j]
            }
        }' "$tmp/ok.tsv" >"$tmp/growth-$s.dat"
    nsolvers=$(grep -c '^"' "$tmp/growth-$s.dat" || true)
    render growth.gp "growth-$s" "datafile='$tmp/growth-$s.dat'; nblocks=$nsolvers; \
        series='$s'"
done
render speedup.gp speedup "datafile='$tmp/speedup.dat'; nblocks=$nspeed; min_base=$min_base"

# Bytes per position: for every series in which a solver named symbolic*
# ran, one file bytes-S.dat: block 0 the explicit solvers' range, a quoted
# label then "positions<TAB>least<TAB>most<TAB>solvers" (the least and most
# peak bytes per position over the explicit solvers at that size), then one
# block per symbolic solver, "positions<TAB>bytes per position"; all sorted
# by positions. Parallel solvers count at one thread.
rm -f "$out"/bytes.png "$out"/bytes.svg
bseries=$(awk -F'\t' -v se="$C_SERIES" -v so="$C_SOLVER" \
    '$se != "" && $so ~ /^symbolic/ && !seen[$se]++ { print $se }' "$tmp/ok.tsv")
for s in $bseries; do
    awk -F'\t' -v OFS='\t' -v se="$C_SERIES" -v so="$C_SOLVER" -v gp="$C_GPOS" -v pk="$C_PEAK" \
        -v t="$C_THREADS" -v want="$s" '
        $se == want && $gp != "" && $pk + 0 > 0 && ($t == "" || $t == 1) {
            x = $gp + 0; y = ($pk + 0) / x
            if ($so ~ /^symbolic/) {
                if (!($so in n)) sym[++nsym] = $so
                n[$so]++; sx[$so, n[$so]] = x; sy[$so, n[$so]] = y
            } else {
                if (!(x in ecount)) ex[++nex] = x
                if (!(x in ecount) || y < elo[x]) elo[x] = y
                if (!(x in ecount) || y > ehi[x]) ehi[x] = y
                ecount[x]++
                if (!($so in esolver)) { esolver[$so] = 1; nes++ }
            }
        }
        END {
            for (a = 2; a <= nex; a++)
                for (b = a; b > 1 && ex[b] < ex[b - 1]; b--) { v = ex[b]; ex[b] = ex[b - 1]; ex[b - 1] = v }
            printf "\"explicit solvers (%d): least to most\"\n", nes
            for (j = 1; j <= nex; j++) printf "%s\t%.6g\t%.6g\t%d\n", ex[j], elo[ex[j]], ehi[ex[j]], ecount[ex[j]]
            for (i = 1; i <= nsym; i++) {
                k = sym[i]
                printf "\n\n\"%s\"\n", k
                for (a = 2; a <= n[k]; a++)
                    for (b = a; b > 1 && sx[k, b] < sx[k, b - 1]; b--) {
                        v = sx[k, b]; sx[k, b] = sx[k, b - 1]; sx[k, b - 1] = v
                        v = sy[k, b]; sy[k, b] = sy[k, b - 1]; sy[k, b - 1] = v
                    }
                for (j = 1; j <= n[k]; j++) printf "%s\t%.6g\n", sx[k, j], sy[k, j]
            }
        }' "$tmp/ok.tsv" >"$tmp/bytes-$s.dat"
done
if [ -n "$bseries" ]; then
    files=""
    for s in $bseries; do files="$files $tmp/bytes-$s.dat"; done
    render bytes.gp bytes "files='${files# }'; names='$(echo $bseries)'"
fi
