#!/bin/sh
# scripts/big-solve.sh NAME COMMAND...: runs one big solve under the bench
# lock and records it in results/big/ (results/big/README.md): COMMAND's
# standard output verbatim in results/big/NAME.json, and in NAME.txt the
# command, its start (UTC) and the load averages before / after. COMMAND
# must print one JSON object (`bin/solve ... --json`). On failure nothing is
# kept and COMMAND's exit code is returned. Then `make readme-table`.
# A run stopped before its end (a kill, a session's end, a full disk) and
# resumed by the same command again is one solve in segments: each start is
# appended to results/big/.NAME.segments (start, load, then the end and exit
# code if this script saw it), and the run that ends well copies those lines
# into NAME.txt as `segment=` lines. Delete .NAME.segments to start afresh.
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
segs="$dir/.$name.segments"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
if [ "${NOLOCK:-0}" != 1 ]; then
    # held on descriptor 9 until this script and COMMAND end
    (: >>"$lock") 2>/dev/null || { echo "big-solve.sh: cannot open the bench lock $lock (BENCH_LOCK)" >&2; exit 2; }
    exec 9>>"$lock"
    flock 9
    load0=$(cut -d' ' -f1-3 /proc/loadavg)
    date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
fi
# With the kernel's autogroups on, `nice` does not yield to other sessions'
# jobs (docs/benchmarks.md, "Big solves and the bench lock"); the tests
# name another file in GAMESMAN_AUTOGROUP_FILE.
if [ "$(cat "${GAMESMAN_AUTOGROUP_FILE:-/proc/sys/kernel/sched_autogroup_enabled}" 2>/dev/null)" = 1 ]; then
    echo "big-solve.sh: note: kernel.sched_autogroup_enabled is 1: other sessions' niced jobs share the cores equally with this run (sysctl kernel.sched_autogroup_enabled=0, as root, makes nice apply across sessions)" >&2
fi
printf 'segment=start %s load %s\n' "$date" "$load0" >>"$segs"
rc=0
"$@" >"$tmp" || rc=$?
load1=$(cut -d' ' -f1-3 /proc/loadavg)
printf 'segment=end %s exit %s load %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$rc" "$load1" >>"$segs"
if [ "$rc" -ne 0 ] || ! jq -e .value "$tmp" >/dev/null 2>&1; then
    rm -f "$tmp"
    echo "big-solve.sh: '$*' failed (exit $rc) or printed no JSON; nothing kept but its segment in $segs (run the same command to resume; delete that file to start the record afresh)" >&2
    exit $((rc == 0 ? 2 : rc))
fi
mv "$tmp" "$dir/$name.json"
{
    # a solve in one run keeps the three lines; one in segments dates from
    # its first and lists them all
    if [ "$(grep -c '^segment=start' "$segs")" -gt 1 ]; then
        printf 'command=%s\ndate=%s\nload=%s / %s\n' "$*" "$(sed -n '1s/^segment=start \([^ ]*\) .*/\1/p' "$segs")" "$load0" "$load1"
        cat "$segs"
    else
        printf 'command=%s\ndate=%s\nload=%s / %s\n' "$*" "$date" "$load0" "$load1"
    fi
} >"$dir/$name.txt"
rm -f "$segs"
echo "big-solve.sh: results/big/$name.json and .txt written; run make readme-table"
