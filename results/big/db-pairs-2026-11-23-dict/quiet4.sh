#!/bin/sh
# The lead's quiet window of 2026-11-23 evening (issue 11): 6x5 pairs with
# and without --db with the dictionary build, then --verify, --analyze and
# the query figures of the last --db run's database. Run under the bench lock.
set -u
Q=/work/scratch/lead/q4
mkdir -p $Q
cd /work/main
B=${B:-build/timing/bin/solve}
DB=/work/scratch/lead/c65q
log() { echo "$(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg) $*"; }
run() { # NAME CMD...: JSON to $Q/NAME.json, time -v to $Q/NAME.time, meta to $Q/NAME.txt
    name=$1; shift
    d0=$(date -u +%Y-%m-%dT%H:%M:%SZ); l0=$(cut -d' ' -f1-3 /proc/loadavg)
    s0=$(head -1 /proc/stat)
    /usr/bin/time -v "$@" >"$Q/$name.json" 2>"$Q/$name.time"
    rc=$?
    s1=$(head -1 /proc/stat)
    echo "$s0" > "$Q/$name.stat"; echo "$s1" >> "$Q/$name.stat"
    # whole machine, in seconds (USER_HZ 100): user system idle iowait softirq steal
    st=$(echo "$s0 $s1" | awk '{printf "machine user %.1f sys %.1f idle %.1f iowait %.1f softirq %.1f steal %.1f", ($13+$14-$2-$3)/100, ($15-$4)/100, ($16-$5)/100, ($17-$6)/100, ($19-$8)/100, ($20-$9)/100}')
    l1=$(cut -d' ' -f1-3 /proc/loadavg)
    printf 'command=%s\ndate=%s\nload=%s / %s\n' "$*" "$d0" "$l0" "$l1" >"$Q/$name.txt"
    log "$name $st"
    log "$name rc=$rc wall=$(jq .wall_seconds "$Q/$name.json") w=$(jq .solver_stats.db_write_seconds "$Q/$name.json") wait=$(jq .solver_stats.db_write_wait_seconds "$Q/$name.json") $(grep -E 'User time|System time|Elapsed|Maximum res' "$Q/$name.time" | tr -s ' ' | tr '\n' ' ')"
}
log start
for i in ${PAIRS:-1 2 3 4 5}; do
    run nodb-$i $B connect4:w=6,h=5 --solver tier:window --threads 2 --json --max-memory 8G
    rm -rf $DB
    run db-$i $B connect4:w=6,h=5 --solver tier:window --threads 2 --db $DB --json --max-memory 8G
    log "du $(du -sb $DB)"
done
run verify $B connect4:w=6,h=5 --db $DB --verify --threads 2 --json
run analyze $B connect4:w=6,h=5 --db $DB --analyze --json
log "query bench"
sh scripts/measure/db-query-bench.sh connect4:w=6,h=5 $DB 10000 $B > $Q/query.txt 2>&1
cat $Q/query.txt
log end
