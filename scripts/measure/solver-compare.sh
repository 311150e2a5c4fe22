#!/bin/sh
# scripts/measure/solver-compare.sh: one game variant strongly solved by two
# solvers, each into a database of its own, and the two compared position
# by position (`bin/solve GAME --db DIR/A --compare DIR/B`,
# solvers/store_compare.c): how the whole of Topitop is checked, `retro`
# against `tier` (docs/games.md, "Topitop"; issue 31).
#
#   scripts/measure/solver-compare.sh GAME DIR [SOLVER_A [SOLVER_B]]
#   scripts/measure/solver-compare.sh topitop:sym "$DIR" retro-unmove tier
#
# Defaults: SOLVER_A retro-unmove (retro without its edges, which Topitop's
# whole game would need several GiB for), SOLVER_B tier. Each solve runs
# under `/usr/bin/time -v` with --json --analyze --progress into DIR/NAME
# (the solver's name up to its first ':'): the database DIR/NAME.db, the
# JSON DIR/NAME.json, the time and memory DIR/NAME.time, the progress
# DIR/NAME.err, its command, start, end and the load averages before and
# after DIR/NAME.run. A solve whose DIR/NAME.json holds a value already is
# skipped; one stopped before its end is started again (tier and the
# solvers that resume carry on from the database on disk). Then the
# comparison, on THREADS threads (default 2), into DIR/compare.json and
# DIR/compare.time. BIN (default bin/solve) is the program, NICE (default
# 19) the niceness, MAXMEM (default 6G) the solves' --max-memory.
# Exits with the comparison's code: 0 equal, 1 different; 2 bad arguments,
# another code when a solve fails.
set -eu
[ $# -ge 2 ] || { echo "usage: solver-compare.sh GAME DIR [SOLVER_A [SOLVER_B]]" >&2; exit 2; }
game=$1
dir=$2
bin=${BIN:-bin/solve}
threads=${THREADS:-2}
nice=${NICE:-19}
maxmem=${MAXMEM:-6G}
case "$threads$nice" in '' | *[!0-9]*) echo "solver-compare.sh: THREADS and NICE are counts" >&2; exit 2 ;; esac
[ -x "$bin" ] || { echo "solver-compare.sh: no program $bin (BIN; make first)" >&2; exit 2; }
"$bin" "$game" --check-args || exit 2
mkdir -p "$dir"

load() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date -u +%Y-%m-%dT%H:%M:%SZ; }

# solve SOLVER: DIR/NAME.json, unless it holds a value already.
solve() {
    name=${1%%:*}
    if jq -e .value "$dir/$name.json" >/dev/null 2>&1; then
        echo "solver-compare.sh: $dir/$name.json holds a solve already; kept" >&2
        return 0
    fi
    set -- nice -n "$nice" /usr/bin/time -v -a -o "$dir/$name.time" "$bin" "$game" --solver "$1" \
        --threads "$threads" --max-memory "$maxmem" --db "$dir/$name.db" --json --analyze --progress
    printf 'command=%s\nstart=%s load %s\n' "$*" "$(now)" "$(load)" >>"$dir/$name.run"
    rc=0
    "$@" >"$dir/$name.json" 2>>"$dir/$name.err" || rc=$?
    printf 'end=%s exit %s load %s\n' "$(now)" "$rc" "$(load)" >>"$dir/$name.run"
    return "$rc"
}

a=${3:-retro-unmove}
b=${4:-tier}
solve "$a"
solve "$b"
rc=0
nice -n "$nice" /usr/bin/time -v -o "$dir/compare.time" "$bin" "$game" --db "$dir/${a%%:*}.db" \
    --compare "$dir/${b%%:*}.db" --threads "$threads" --progress --json >"$dir/compare.json" ||
    rc=$?
jq -c '{compared, in_both, a_only, b_only, differ, differences, wall_seconds}' "$dir/compare.json"
exit "$rc"
