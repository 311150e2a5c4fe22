#!/bin/sh
# scripts/baghchal/sliding-solve.sh: Bagh Chal's sliding phase (every goat
# placed) solved strongly, tier by tier, with no placement tier: each
# sliding tier (0 goats in hand, c captured) by `tier:sector`
# (solvers/tier/), from c = captures (the tigers have won) down to c = 0,
# each run loading the tier below it from the database directory where the
# run before left it, so each run reports its own tier's positions and
# values, time, memory and file (docs/games.md, "The 5x5 sliding phase").
# One run per tier under the bench lock (scripts/locked-run.sh: /usr/bin/time
# -v, the date and the load), records in OUT: slide-C.json (--json),
# slide-C.err (stderr and the times), slide-C.txt (command, date, load
# before and after, the tier file's bytes); then the Markdown table.
#
#   scripts/baghchal/sliding-solve.sh [-n 5] [-v sym] [-d DB] [-o OUT] [-m 6G] [-t]
#
# Defaults: n=5 with its default goats (20) and captures (5), variant
# options "sym" (one position per class of the board's symmetries, as Lim
# and Nievergelt counted), DB $BAGHCHAL_DB (no default: -d or BAGHCHAL_DB
# is needed), OUT results/big/baghchal5, --max-memory 6G, 2 threads, the
# release build (BIN= another binary). -t: only print the table of the
# records in OUT. -v may set goats= and captures= (e.g. -v
# goats=8,captures=2,sym), which the tier numbers follow.
#
# The sliding tier (0, c) is tier 2 P + c of games/baghchal.c's layout,
# where P counts the placement pairs (h in hand from goats down to 1, c
# captured from 0 to min(captures, goats - h)).
set -eu
n=5
vopts=sym
db=${BAGHCHAL_DB:-}
out=results/big/baghchal5
mem=6G
table_only=0
bin=${BIN:-build/release/bin/solve}
while getopts n:v:d:o:m:t opt; do
    case "$opt" in
    n) n=$OPTARG ;;
    v) vopts=$OPTARG ;;
    d) db=$OPTARG ;;
    o) out=$OPTARG ;;
    m) mem=$OPTARG ;;
    t) table_only=1 ;;
    *) exit 2 ;;
    esac
done
# The goats and captures in force: the variant's, else the board's default.
opt_of() { printf '%s\n' ",$vopts," | sed -n "s/.*,$1=\([0-9]*\),.*/\1/p"; }
goats=$(opt_of goats)
captures=$(opt_of captures)
case "$n" in
3) goats=${goats:-4} captures=${captures:-1} ;;
4) goats=${goats:-12} captures=${captures:-3} ;;
5) goats=${goats:-20} captures=${captures:-5} ;;
*) echo "scripts/baghchal/sliding-solve.sh: n=$n: the board is 3, 4 or 5" >&2; exit 2 ;;
esac
base=$(awk -v g="$goats" -v k="$captures" 'BEGIN {
    p = 0
    for (h = g; h >= 1; h--) for (c = 0; c <= k && c <= g - h; c++) p++
    print 2 * p }')
spec="baghchal:n=$n${vopts:+,$vopts}"
if [ "$table_only" = 0 ]; then
    [ -n "$db" ] || {
        echo "sliding-solve.sh: needs the database directory: -d DB, or BAGHCHAL_DB=DB in the environment" >&2
        exit 2
    }
    mkdir -p "$out" "$db"
    c=$captures
    while [ "$c" -ge 0 ]; do
        tier=$((base + c))
        rec="$out/slide-$c"
        cmd="$bin $spec --solver tier:sector=$tier --threads 2 --json --max-memory $mem --db $db"
        # shellcheck disable=SC2086 # the command's words
        "$(dirname "$0")/../locked-run.sh" "$rec" $cmd || {
            echo "tier (0, $c): failed, see $rec.err" >&2
            exit 1
        }
        {
            printf 'command=%s\n' "$cmd"
            cat "$rec.meta"
            printf 'load_after=%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
            printf 'disk_bytes=%s\n' "$(stat -c %s "$db/$(printf 'tier-%04d.gmdb' "$tier")")"
        } >"$rec.txt"
        rm -f "$rec.meta"
        c=$((c - 1))
    done
fi
printf '| captured | tier | positions | wins | losses | draws | wall | CPU (share) | peak (jemalloc) | peak RSS | disk | date (UTC), load before / after |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
c=0
while [ "$c" -le "$captures" ]; do
    b="$out/slide-$c"
    [ -s "$b.json" ] || { echo "scripts/baghchal/sliding-solve.sh: no record $b.json" >&2; exit 1; }
    cpu=$(awk -F': ' '/User time|System time/ { t += $2 } END { printf "%.0f", t }' "$b.err")
    date=$(sed -n 's/^date=//p' "$b.txt" | sed 's/T/ /; s/:[0-9]*Z$//')
    lb=$(sed -n 's/^load_before=//p' "$b.txt" | cut -d' ' -f1)
    la=$(sed -n 's/^load_after=//p' "$b.txt" | cut -d' ' -f1)
    disk=$(sed -n 's/^disk_bytes=//p' "$b.txt")
    jq -r --arg c "$c" --arg t "$((base + c))" --arg cpu "$cpu" --arg date "$date" --arg lb "$lb" \
        --arg la "$la" --arg disk "$disk" '
        def n: tostring | until(test("^[0-9]{1,3}(,|$)"); sub("(?<a>[0-9])(?<b>[0-9]{3})(?<r>(,|$))"; "\(.a),\(.b)\(.r)"));
        def mib: if . >= 1073741824 then "\(. / 1073741824 * 100 | round / 100) GiB"
                 else "\(. / 1048576 * 10 | round / 10) MiB" end;
        .solver_stats as $x |
        "| \($c) | \($t) | \($x.sector_positions | n) | \($x.sector_wins | n) | \($x.sector_losses | n) | \($x.sector_draws | n) | \(.wall_seconds | round) s | \($cpu) s (\(($cpu | tonumber) / .wall_seconds * 100 | round / 100)) | \(.peak_bytes | mib) | \(.peak_rss_bytes | mib) | \(($disk | tonumber) / 1024 | round) KiB | \($date), \($lb) / \($la) |"' \
        "$b.json"
    c=$((c + 1))
done
