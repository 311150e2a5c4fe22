#!/bin/sh
# scripts/measure/bench-ratio.sh A B [N]: two `make bench` runs compared as
# one figure (docs/benchmarks.md, "Same speed after a change"). A and B
# are result directories (results/<UTC time>/, each with its bench.json);
# over the benchmarks both ran (by name; failed ones left out) it prints
# how many, B's summed time over A's, the geometric mean of the per-
# benchmark ratios B/A, and the N (default 5) largest and smallest ratios
# with both times and iteration counts (few iterations: a noisy mean).
# Google Benchmark's own per-benchmark table: `make bench-compare A= B=`.
set -eu
[ $# -ge 2 ] || { echo "usage: bench-ratio.sh A B [N]" >&2; exit 2; }
n=${3:-5}
for d in "$1" "$2"; do
    [ -f "$d/bench.json" ] || { echo "bench-ratio.sh: no $d/bench.json" >&2; exit 2; }
done
bench_times() { # DIR: name, time in seconds, iterations, one benchmark a line
    jq -r '.benchmarks[] | select(.run_type == "iteration" and (.error_occurred | not)) |
        [.name, (.real_time * ({"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[.time_unit])),
         .iterations] | @tsv' "$1/bench.json" | sort
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bench_times "$1" >"$tmp/a"
bench_times "$2" >"$tmp/b"
join -t "$(printf '\t')" "$tmp/a" "$tmp/b" | awk -F '\t' '{ print $4 / $2 "\t" $0 }' |
    sort -g >"$tmp/j"
awk -F '\t' '{ k++; sa += $3; sb += $5; lg += log($1) }
    END { if (k == 0) { print "no benchmark in common"; exit 1 }
          printf "%d benchmarks in common: summed time %.4g s -> %.4g s (B/A %.3f), geometric mean of B/A %.3f\n",
              k, sa, sb, sb / sa, exp(lg / k) }' "$tmp/j"
show() {
    awk -F '\t' '{ printf "  %.3f  %s  %.4g s (%d it) -> %.4g s (%d it)\n", $1, $2, $3, $4, $5, $6 }'
}
echo "smallest B/A:"
head -n "$n" "$tmp/j" | show
echo "largest B/A:"
tail -n "$n" "$tmp/j" | show
