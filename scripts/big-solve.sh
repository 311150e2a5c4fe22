#!/bin/sh
# scripts/big-solve.sh NAME COMMAND...: runs one big solve under the bench
# lock and records it in results/big/ (results/big/README.md): COMMAND's
# standard output verbatim in results/big/NAME.json, and in NAME.txt the
# command, its start (UTC) and the load averages before / after. COMMAND
# must print one JSON object (`bin/solve ... --json`). On failure nothing is
# kept and COMMAND's exit code is returned. Then `make readme-table`.
# The bench lock is scripts/locked-run.sh's: the file BENCH_LOCK (default
# /tmp/gamesman-bench.lock), taken with flock(1); NOLOCK=1 when the caller
# holds it already.
# Example:
#   scripts/big-solve.sh connect4-5x5 build/timing/bin/solve connect4:w=5,h=5 \
#       --solver tier --threads 2 --json
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/big-solve.sh NAME COMMAND..." >&2; exit 2; }
name=$1
shift
case "$name" in *[!A-Za-z0-9._-]* | "") echo "big-solve.sh: NAME is letters, digits, . _ -" >&2; exit 2 ;; esac
dir=$(dirname "$0")/../results/big
lock=${BENCH_LOCK:-/tmp/gamesman-bench.lock}
tmp="$dir/.$name.json.tmp"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
rc=0
if [ "${NOLOCK:-0}" = 1 ]; then
    "$@" >"$tmp" || rc=$?
else
    flock "$lock" "$@" >"$tmp" || rc=$?
fi
load1=$(cut -d' ' -f1-3 /proc/loadavg)
if [ "$rc" -ne 0 ] || ! jq -e .value "$tmp" >/dev/null 2>&1; then
    rm -f "$tmp"
    echo "big-solve.sh: '$*' failed (exit $rc) or printed no JSON; nothing kept" >&2
    exit $((rc == 0 ? 2 : rc))
fi
mv "$tmp" "$dir/$name.json"
printf 'command=%s\ndate=%s\nload=%s / %s\n' "$*" "$date" "$load0" "$load1" >"$dir/$name.txt"
echo "big-solve.sh: results/big/$name.json and .txt written; run make readme-table"
