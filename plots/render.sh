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
#   speedup   (e) parallel solvers: speed-up against threads
#   bytes     (f) peak bytes per position against positions, explicit and
#             symbolic solvers, on the series where a symbolic solver ran
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

# Speed-up: per (solver, game) run at several thread counts, one block of
# (threads, time at the fewest threads / time).
awk -F'\t' -v OFS='\t' -v s="$C_SOLVER" -v g="$C_GAME" -v v="$C_VARIANT" -v t="$C_THREADS" \
    -v tm="$C_TIME" '
    $t != "" {
        k = $s " " ($v == "" ? $g : $g ":" $v)
        if (!(k in n)) order[++nk] = k
        n[k]++; th[k, n[k]] = $t + 0; tt[k, n[k]] = $tm + 0
    }
    END {
        blocks = 0
        for (i = 1; i <= nk; i++) {
            k = order[i]
            if (n[k] < 2) continue
            base = 1
            for (j = 2; j <= n[k]; j++) if (th[k, j] < th[k, base]) base = j
            if (blocks++) printf "\n\n"
            printf "\"%s\"\n", k
            # by threads: repeatedly print the smallest count not yet printed
            last = -1
            for (c = 1; c <= n[k]; c++) {
                pick = 0
                for (j = 1; j <= n[k]; j++)
                    if (th[k, j] > last && (pick == 0 || th[k, j] < th[k, pick])) pick = j
                last = th[k, pick]
                printf "%d\t%.6g\n", th[k, pick], tt[k, base] / tt[k, pick]
            }
        }
    }' "$tmp/ok.tsv" >"$tmp/speedup.dat"
nspeed=$(grep -c '^"' "$tmp/speedup.dat" || true)

machine=$(jq -r '.context.machine // .context.host_name // "unknown machine"' "$json")
date=$(jq -r '.context.date // ""' "$json" | cut -c1-16)
subtitle="$date, $machine"

render() { # SCRIPT OUTNAME [gnuplot -e assignments]
    local script=$1 name=$2
    shift 2
    for term in png svg; do
        # A solver without a value on a chart (minimax allocates nothing) is
        # in the legend only: gnuplot's warning about its empty column is noise.
        gnuplot -e "dir='$here/'; term='$term'; outfile='$out/$name.$term'; subtitle='$subtitle'; $*" \
            "$here/$script" 2>&1 | { grep -v 'Skipping data file with no valid points' || true; } >&2
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
render speedup.gp speedup "datafile='$tmp/speedup.dat'; nblocks=$nspeed"

# Bytes per position: the rows of every series in which a solver named
# symbolic* ran, one block per series and solver (symbolic ones first, drawn
# solid),
# (game positions, peak bytes / game positions) sorted by positions.
awk -F'\t' -v OFS='\t' -v se="$C_SERIES" -v so="$C_SOLVER" -v gp="$C_GPOS" -v pk="$C_PEAK" \
    -v t="$C_THREADS" '
    $se != "" && $so ~ /^symbolic/ { symser[$se] = 1 }
    { rows[NR] = $0 }
    END {
        for (r = 1; r <= NR; r++) {
            split(rows[r], f, "\t")
            if (!(f[se] in symser) || f[gp] == "" || f[pk] + 0 <= 0) continue
            if (f[t] != "" && f[t] != 1) continue
            k = f[se] ", " (f[so] ~ /^symbolic/ ? "symbolic: " : "explicit: ") f[so]
            if (!(k in n)) { if (f[so] ~ /^symbolic/) sym[++nsym] = k; else exp_[++nexp] = k }
            n[k]++; x[k, n[k]] = f[gp] + 0; y[k, n[k]] = (f[pk] + 0) / (f[gp] + 0)
        }
        nb = 0
        for (i = 1; i <= nsym + nexp; i++) {
            k = i <= nsym ? sym[i] : exp_[i - nsym]
            if (nb++) printf "\n\n"
            printf "\"%s\"\n", k
            for (a = 2; a <= n[k]; a++)
                for (b = a; b > 1 && x[k, b] < x[k, b - 1]; b--) {
                    tx = x[k, b]; x[k, b] = x[k, b - 1]; x[k, b - 1] = tx
                    ty = y[k, b]; y[k, b] = y[k, b - 1]; y[k, b - 1] = ty
                }
            for (j = 1; j <= n[k]; j++) printf "%s\t%.6g\n", x[k, j], y[k, j]
        }
        printf "%d\n", nsym > "/dev/stderr"
    }' "$tmp/ok.tsv" >"$tmp/bytes.dat" 2>"$tmp/bytes.nsym"
nbytes=$(grep -c '^"' "$tmp/bytes.dat" || true)
if [ "$nbytes" -gt 0 ]; then
    render bytes.gp bytes "datafile='$tmp/bytes.dat'; nblocks=$nbytes; \
        nsymbolic=$(cat "$tmp/bytes.nsym")"
fi
