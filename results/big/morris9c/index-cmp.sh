#!/bin/sh
# results/big/morris9c/index-cmp.sh BIN DIR: nine men's morris sectors 3-3, 3-4,
# 4-3 and 4-4 (tiers 648, 649, 658, 659) solved by BIN from an empty DIR
# on one thread, each with its children loaded from the one before; one
# line per sector: tier, user and system CPU seconds, wall seconds, peak
# RSS (KiB), from /usr/bin/time. Compares two builds on the same work
# (docs/loopy.md, "The index by classes"): run it for each, on a quiet
# machine. DIR is emptied first.
set -eu
[ $# -eq 2 ] || { echo "usage: results/big/morris9c/index-cmp.sh BIN DIR" >&2; exit 2; }
bin=$1
d=$2
rm -rf "$d"
mkdir -p "$d"
for t in 648 649 658 659; do
    /usr/bin/time -f "$t %U %S %e %M" "$bin" morris:n=9,sym --solver tier:sector=$t --threads 1 \
        --json --db "$d" 2>&1 >/dev/null | grep -v '^tier:'
done
