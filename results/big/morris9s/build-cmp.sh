#!/bin/sh
# results/big/morris9s/build-cmp.sh DB SECTOR BIN...: builds compared on one
# nine men's morris sector. DB holds the sector's child sectors (a
# database of scripts/morris/sector-solve.sh); for each BIN, a copy of DB
# without SECTOR's tier file, SECTOR solved there on one thread, and one
# line: the build, user CPU, wall, peak RSS (KiB), and the run's
# db_checksum, which must be the same for builds that canonicalize and
# index alike. VOPTS (default sym) are the variant's options, as for
# scripts/morris/sector-solve.sh. docs/loopy.md, "The colour swap": DB with 3-3 up
# to 5-4 (sym), SECTOR 5-5.
set -eu
[ $# -ge 3 ] || { echo "usage: results/big/morris9s/build-cmp.sh DB W-B BIN..." >&2; exit 2; }
db=$1
s=$2
shift 2
w=${s%-*}
b=${s#*-}
tier=$((615 + 10 * w + b)) # games/morris.c's layout for n=9 (scripts/morris/sector-solve.sh)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for bin in "$@"; do
    rm -rf "$tmp/db"
    cp -r "$db" "$tmp/db"
    rm -f "$tmp/db/$(printf 'tier-%04d.gmdb' "$tier")"
    /usr/bin/time -f "%U %e %M" -o "$tmp/time" "$bin" "morris:n=9,${VOPTS:-sym}" \
        --solver tier:sector=$tier --threads 1 --json --db "$tmp/db" >"$tmp/out.json" 2>/dev/null
    printf '%s user %s s, wall %s s, peak RSS %s KiB, checksum %s\n' "$bin" \
        "$(cut -d' ' -f1 "$tmp/time")" "$(cut -d' ' -f2 "$tmp/time")" "$(cut -d' ' -f3 "$tmp/time")" \
        "$(jq -r .db_checksum "$tmp/out.json")"
done
