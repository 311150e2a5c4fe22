#!/bin/sh
# scripts/measure/db-write-pairs.sh GAME ROUNDS DIR NAME=SOLVE[:db]...: what writing
# the database costs a tier solve (docs/database.md). Runs each
# configuration once per round, alternating: `SOLVE GAME --solver
# tier:window --threads 2 --json` (with `--db DIR/db`, emptied first, for
# the ones marked :db) under `perf stat -e task-clock,context-switches`,
# and prints one row a run: name and round, wall seconds (the solve's own
# wall_seconds), CPU seconds (task-clock), context switches,
# db_write_seconds, db_write_wait_seconds, the database checksum and the
# 1-minute load average. SOLVE is a bin/solve, e.g. a timing build of
# each commit compared. Run it under the bench lock (flock
# "${BENCH_LOCK:-/tmp/gamesman-bench.lock}" ...); the outputs are kept in DIR.
# Example:
#   scripts/measure/db-write-pairs.sh connect4:w=5,h=5 5 /tmp/pairs \
#       old=/tmp/old/bin/solve old.db=/tmp/old/bin/solve:db \
#       new=build/timing/bin/solve new.db=build/timing/bin/solve:db
set -eu
[ $# -ge 4 ] || {
    echo "usage: scripts/measure/db-write-pairs.sh GAME ROUNDS DIR NAME=SOLVE[:db]..." >&2
    exit 2
}
game=$1
rounds=$2
dir=$3
shift 3
mkdir -p "$dir"
echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ "$i" -le "$rounds" ]; do
    for config in "$@"; do
        name=${config%%=*}
        solve=${config#*=}
        db=
        case $solve in
        *:db)
            solve=${solve%:db}
            rm -rf "$dir/db"
            db="--db $dir/db"
            ;;
        esac
        out=$dir/$name.$i
        # shellcheck disable=SC2086
        perf stat -e task-clock,context-switches -o "$out.perf" "$solve" "$game" \
            --solver tier:window --threads 2 --json --max-memory 3G $db >"$out.json"
        python3 - "$out" "$name.$i" <<'EOF'
import json, re, sys
out, name = sys.argv[1], sys.argv[2]
d = json.load(open(out + ".json"))
perf = open(out + ".perf").read()
cpu = float(re.search(r"([\d.,]+) msec task-clock", perf).group(1).replace(",", "")) / 1000
cs = re.search(r"([\d,]+)\s+context-switches", perf).group(1)
st = d["solver_stats"]
print(f"{name:16s} wall {d['wall_seconds']:8.3f} cpu {cpu:8.3f} cs {cs:>7s} "
      f"write {st.get('db_write_seconds', 0):7.3f} wait {st.get('db_write_wait_seconds', 0):7.3f} "
      f"checksum {d['db_checksum']} load {open('/proc/loadavg').read().split()[0]}")
EOF
    done
    i=$((i + 1))
done
rm -rf "$dir/db"
echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
