#!/bin/sh
# scripts/measure/speed-pairs.sh OLD NEW [PAIRS [GAME [OPTIONS...]]]: a same-speed check
# of two builds of bin/solve (for example a timing build of the commit before a
# refactoring and one of today's). Runs GAME (default connect4:w=6,h=5,k=4) with
# OPTIONS (default --solver tier:window --threads 2) PAIRS times (default 3) on
# each binary, alternating old, new, old, new... so that a drift in the machine's
# load falls on both sides, under the bench lock (BENCH_LOCK, as for
# scripts/locked-run.sh). Checks that both builds print the same value, position
# count and db_checksum, and prints one row per run (wall and CPU seconds, the
# load average when the run started) and then the ratio new/old of the summed
# wall times and of each pair. Not a test: a timing is only as quiet as the
# machine; take it alone.
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/measure/speed-pairs.sh OLD NEW [PAIRS [GAME [OPTIONS...]]]" >&2; exit 2; }
old=$1
new=$2
pairs=${3:-3}
game=${4:-connect4:w=6,h=5,k=4}
[ $# -ge 4 ] && shift 4 || shift $#
[ $# -eq 0 ] && set -- --solver tier:window --threads 2
for b in "$old" "$new"; do
    [ -x "$b" ] || { echo "speed-pairs: $b is not an executable" >&2; exit 2; }
done
case $pairs in '' | *[!0-9]*) echo "speed-pairs: PAIRS must be a positive number" >&2; exit 2 ;; esac
[ "$pairs" -ge 1 ] || { echo "speed-pairs: PAIRS must be a positive number" >&2; exit 2; }
lock="flock ${BENCH_LOCK:-/tmp/gamesman-bench.lock}"
[ "${NOLOCK:-0}" = 1 ] && lock=""
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export tmp game
$lock sh -c '
    old=$1 new=$2 pairs=$3
    shift 3
    echo "# $(date -u "+%Y-%m-%d %H:%M UTC"), $(nproc) cores; old $old, new $new: $game $*"
    echo "| run | build | wall s | CPU s | load at start | value | positions | db_checksum |"
    echo "|---|---|---|---|---|---|---|---|"
    i=1
    while [ $i -le $pairs ]; do
        for side in old new; do
            if [ $side = old ]; then b=$old; else b=$new; fi
            load=$(cut -d" " -f1 /proc/loadavg)
            /usr/bin/time -o "$tmp/cpu" -f "%U %S" "$b" "$game" "$@" --json >"$tmp/$side.$i.json"
            cpu=$(awk "{ printf \"%.1f\", \$1 + \$2 }" "$tmp/cpu")
            jq -r --arg r "$i" --arg s "$side" --arg c "$cpu" --arg l "$load" \
                "\"| \\(\$r) | \\(\$s) | \\(.wall_seconds * 10 | round / 10) | \\(\$c) | \\(\$l) | \\(.value) | \\(.positions) | \\(.db_checksum // \"-\") |\"" \
                "$tmp/$side.$i.json"
        done
        i=$((i + 1))
    done' sh "$old" "$new" "$pairs" "$@"
same=$(jq -s -c "map([.value, .positions, .db_checksum]) | unique | length" "$tmp"/*.json)
[ "$same" = 1 ] || { echo "speed-pairs: the runs disagree on value, positions or db_checksum" >&2; exit 1; }
o=$(cat "$tmp"/old.*.json | jq -s "map(.wall_seconds) | add")
n=$(cat "$tmp"/new.*.json | jq -s "map(.wall_seconds) | add")
i=1
per=""
while [ $i -le "$pairs" ]; do
    per="$per $(jq -n --slurpfile a "$tmp/old.$i.json" --slurpfile b "$tmp/new.$i.json" '$b[0].wall_seconds / $a[0].wall_seconds * 1000 | round / 1000')"
    i=$((i + 1))
done
echo "new/old, summed wall: $(jq -n "$n / $o * 1000 | round / 1000"); per pair:$per"
