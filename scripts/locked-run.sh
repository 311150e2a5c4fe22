#!/bin/sh
# scripts/locked-run.sh BASE COMMAND...: one recorded run of a long solve,
# for the scripts that keep records in results/big (scripts/morris/sector-solve.sh,
# scripts/morris/opening.sh, scripts/morris/placement-solve.sh). Under the
# bench lock, COMMAND runs timed by /usr/bin/time -v: its standard output
# goes to BASE.json, its standard error and the times to BASE.err, and
# BASE.meta gets the date and the load averages taken inside the lock, when
# the run starts. Exits with COMMAND's status.
#
# The bench lock (the same for scripts/big-solve.sh): the file BENCH_LOCK,
# default /tmp/gamesman-bench.lock, taken with flock(1) so that timed runs
# on one machine do not overlap; NOLOCK=1 when the caller holds it already.
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/locked-run.sh BASE COMMAND..." >&2; exit 2; }
base=$1
shift
lock="flock ${BENCH_LOCK:-/tmp/gamesman-bench.lock}"
if [ "${NOLOCK:-0}" = 1 ]; then
    lock=""
fi
$lock sh -c '
    printf "date=%s\nload_before=%s\n" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
        "$(cut -d" " -f1-3 /proc/loadavg)" >"$1.meta"
    shift
    exec /usr/bin/time -v "$@"' sh "$base" "$@" >"$base.json" 2>"$base.err"
