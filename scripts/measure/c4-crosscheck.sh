#!/bin/sh
# scripts/measure/c4-crosscheck.sh: a Connect Four database's values
# checked against a second method (docs/connect-four.md, issue 30). N
# positions with at least D discs (random play from the empty board,
# `--sample`, seed S; duplicates dropped) are valued twice: by `--query`
# from DB (any database `--db` reads: tier, tier:blocks...) and by the
# `search` solver (solvers/search.c) from each position (`--query P`, one
# thread, no database), a proof search that shares no code with the
# tier solver's backward pass. Values only: search gives no remoteness.
#
#   scripts/measure/c4-crosscheck.sh SPEC DB [N [D [S]]]
#   scripts/measure/c4-crosscheck.sh connect4:w=5,h=7 "$DB" 200 20 1
#
# Defaults N=100, D=half the cells, S=1; BIN (default bin/solve) is the
# program. Prints one line per disagreement and a summary line (the date,
# the load, the positions, their disc counts, the time of the searches);
# exits 1 when a value differs, 2 on bad arguments. A position with few
# discs may take the search long: raise D for big boards.
set -eu
[ $# -ge 2 ] || { echo "usage: c4-crosscheck.sh SPEC DB [N [D [S]]]" >&2; exit 2; }
spec=$1
db=$2
count=${3:-100}
bin=${BIN:-bin/solve}
cells=$("$bin" "$spec" --sample 1 --seed 1 | tr -d '/\n' | wc -c)
discs=${4:-$((cells / 2))}
seed=${5:-1}
for v in "$count" "$discs" "$seed"; do
    case "$v" in '' | *[!0-9]*) echo "c4-crosscheck.sh: N, D and S are counts" >&2; exit 2 ;; esac
done
[ -f "$db/manifest" ] || { echo "c4-crosscheck.sh: no database in $db" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" "$spec" --sample $((count * 50)) --seed "$seed" |
    awk -v d="$discs" '{ n = gsub(/[xo]/, "&") } n >= d && !seen[$0]++' |
    head -n "$count" >"$tmp/positions"
got=$(wc -l <"$tmp/positions")
[ "$got" -gt 0 ] || { echo "c4-crosscheck.sh: no sampled position has $discs discs" >&2; exit 2; }
start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load=$(cut -d' ' -f1-3 /proc/loadavg)
"$bin" "$spec" --db "$db" --query - <"$tmp/positions" | jq -r '.position + " " + .value' >"$tmp/db"
t0=$(date +%s)
while read -r p; do
    printf '%s %s\n' "$p" "$("$bin" "$spec" --solver search --threads 1 --query "$p" --json |
        jq -r .query.value)"
done <"$tmp/positions" >"$tmp/search"
t1=$(date +%s)
bad=$(paste -d' ' "$tmp/db" "$tmp/search" | awk '$1 != $3 || $2 != $4 { print; n++ } END { exit n > 0 }') || {
    echo "$bad" | sed 's/^/DIFFERS (position db-value position search-value): /'
}
range=$(awk '{ n = gsub(/[xo]/, "&"); lo = NR == 1 || n < lo ? n : lo; hi = n > hi ? n : hi }
    END { printf "%d to %d", lo, hi }' "$tmp/positions")
wins=$(awk '$2 == "win"' "$tmp/db" | wc -l)
ties=$(awk '$2 == "tie"' "$tmp/db" | wc -l)
loses=$(awk '$2 == "lose"' "$tmp/db" | wc -l)
echo "c4-crosscheck: $spec, $got positions of $range discs (--sample, seed $seed; $wins win, $ties tie, $loses lose by DB): $([ -z "$bad" ] && echo "all equal" || echo "$(echo "$bad" | wc -l) differ") to search's values; searches $((t1 - t0)) s; $start, load $load"
[ -z "$bad" ]
