#!/bin/sh
# tests/cli.sh SOLVE: end-to-end tests of bin/solve (a path to the binary).
# Bad input must print one clear line on stderr and exit non-zero without a
# crash (exit codes from a signal are >= 128); JSON output is checked with jq
# against published tic-tac-toe figures and against itself across solvers.
# Ends with "cli: N passed, N failed".
set -u
solve=$1
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# refuse NAME EXPECTED_MESSAGE_PART ARGS...: non-zero exit below 128, a
# message on stderr containing the part, nothing on stdout.
refuse() {
    name=$1 part=$2
    shift 2
    out=$("$solve" "$@" 2>/tmp/cli_err.$$)
    rc=$?
    err=$(cat /tmp/cli_err.$$)
    if [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && [ -z "$out" ] &&
        echo "$err" | grep -q "^solve: .*$part"; then
        ok "$name"
    else
        bad "$name (exit $rc, stderr: $err)"
    fi
}

refuse "unknown game" "unknown game 'nosuchgame'" nosuchgame
refuse "unknown solver" "unknown solver 'nosuch'" tictactoe --solver nosuch
refuse "unknown game option" "unknown option 'foo'" tictactoe:foo=1
refuse "switch with a bad value" "switch" tictactoe:sym=2
refuse "query too long" "9 cells" tictactoe --query xxxxxxxxxx
refuse "query illegal counts" "x must have" tictactoe --query xxxxxxxxx
refuse "query two winners" "cannot arise" tictactoe --query xxxooo---
refuse "query bad character" "is not x, o" tictactoe --query xo-z-----
refuse "query on root-only solver" "keeps a database" tictactoe --solver minimax --query x--------
refuse "query on partial solver" "stores only some" tictactoe --solver dfs-depth:k=3 --query x--------
refuse "dfs-depth negative k" "k" tictactoe --solver dfs-depth:k=-1
refuse "solver option unknown" "unknown option 'foo'" tictactoe --solver dfs:foo=1
refuse "minimax limit" "limit" tictactoe --solver minimax:limit=10
refuse "memory budget" "memory budget" tictactoe --max-memory 1K
refuse "bad memory size" "not a memory size" tictactoe --max-memory lots
refuse "threads zero" "--threads" tictactoe --threads 0
refuse "threads junk" "--threads" tictactoe --threads 2x
refuse "unknown flag" "unknown option '--bogus'" tictactoe --bogus
refuse "missing value" "needs a value" tictactoe --solver
refuse "no game" "no game given"
refuse "two games" "one game at a time" tictactoe tictactoe
refuse "empty game name" "not a game name" :sym

# The three DFS solvers agree with the published figures and each other.
for s in dfs gps gps-cached; do
    j=$("$solve" tictactoe --solver "$s" --json)
    if echo "$j" | jq -e '.value == "tie" and .remoteness == 9 and .positions == 5478 and
        .wins + .losses + .ties + .draws == .positions' >/dev/null; then
        ok "$s tictactoe"
    else
        bad "$s tictactoe: $j"
    fi
    echo "$j" | jq -c '[.wins, .losses, .ties, .draws]' >"/tmp/cli_counts_$s.$$"
done
if cmp -s "/tmp/cli_counts_dfs.$$" "/tmp/cli_counts_gps.$$" &&
    cmp -s "/tmp/cli_counts_dfs.$$" "/tmp/cli_counts_gps-cached.$$"; then
    ok "same counts from every solver"
else
    bad "counts differ between solvers"
fi
rm -f /tmp/cli_counts_*.$$ /tmp/cli_err.$$

j=$("$solve" tictactoe --solver dfs --json)
if echo "$j" | jq -e '.counting == false or
    (.counters.unhash >= 2 * .positions and
     .counters.unhash >= .counters.primitive + .counters.generate_moves + .counters.do_move)' \
    >/dev/null; then
    ok "dfs unhashes in primitive, generate_moves and do_move"
else
    bad "dfs unhash count: $j"
fi
for s in gps gps-cached; do
    j=$("$solve" tictactoe --solver "$s" --json)
    if echo "$j" | jq -e '.counting == false or (.counters.unhash <= 1 and .counters.unhash >= 0)' \
        >/dev/null; then
        ok "$s unhashes at most once"
    else
        bad "$s unhash count: $j"
    fi
done

j=$("$solve" tictactoe:sym --json)
echo "$j" | jq -e '.positions == 765 and .value == "tie"' >/dev/null && ok "sym 765" ||
    bad "sym: $j"

j=$("$solve" tictactoe --solver minimax --json)
echo "$j" | jq -e '.positions == null and .value == "tie" and .remoteness == 9 and
    (.counting == false or .counters.calls == 549946)' >/dev/null && ok "minimax tree" ||
    bad "minimax: $j"

j=$("$solve" tictactoe --json --analyze)
echo "$j" | jq -e '([.by_remoteness[] | .win + .lose + .tie + .draw] | add) == .positions and
    ([.by_remoteness[] | .win] | add) == .wins and
    (.by_remoteness | length) == 10' >/dev/null && ok "analyze histogram" ||
    bad "analyze: $j"

j=$("$solve" tictactoe --json --query xx-oo----)
echo "$j" | jq -e '.query.value == "win" and .query.remoteness == 1 and
    .query.moves[0].move == "3" and .query.moves[0].value == "win" and
    .query.moves[0].remoteness == 1 and (.query.moves | length) == 5' >/dev/null &&
    ok "query" || bad "query: $j"

j=$("$solve" tictactoe --json)
echo "$j" | jq -e '.solver == "gps-cached"' >/dev/null && ok "default solver" ||
    bad "default solver: $j"

"$solve" --list | grep -q "tictactoe" && "$solve" --list | grep -q "gps-cached" &&
    ok "list" || bad "list"
"$solve" --help | grep -q "usage" && ok "help" || bad "help"
"$solve" tictactoe | grep -q "^value *tie in 9" && ok "text output" || bad "text output"

# The bottom-up solvers: the same value, remoteness and counts as dfs.
j=$("$solve" tictactoe --solver dfs --json | jq -c '[.value, .remoteness, .positions, .wins, .losses, .ties, .draws]')
for s in sweep sweep:down sweep:recheck tier tier:window tier:stateless; do
    k=$("$solve" tictactoe --solver "$s" --threads 2 --json |
        jq -c '[.value, .remoteness, .positions, .wins, .losses, .ties, .draws]')
    [ "$j" = "$k" ] && ok "$s matches dfs" || bad "$s: $k, dfs: $j"
done
j=$("$solve" tictactoe --solver sweep --json)
echo "$j" | jq -e '.solver_stats.sweeps >= 2 and .solver_stats.marking_sweeps == 1 and
    (.counting == false or .counters.sweeps == .solver_stats.sweeps)' >/dev/null &&
    ok "sweep stats" || bad "sweep stats: $j"
j=$("$solve" tictactoe --solver tier --threads 2 --json --query xx-oo----)
echo "$j" | jq -e '.threads == 2 and .query.value == "win" and .query.remoteness == 1 and
    .solver_stats.whole_database == 1' >/dev/null && ok "tier query" || bad "tier query: $j"
"$solve" tictactoe --solver sweep --progress 2>&1 >/dev/null | grep -q "^sweep 1 (marking)" &&
    ok "sweep progress" || bad "sweep progress"
"$solve" tictactoe --solver tier --progress 2>&1 >/dev/null | grep -q "^tier: solve tier 0" &&
    ok "tier progress" || bad "tier progress"
"$solve" tictactoe --solver tier 2>&1 >/dev/null | grep -q "tier:" &&
    bad "tier progress without a terminal or --progress" || ok "tier quiet"
refuse "tier query without a database" "'tier:window' keeps only" tictactoe \
    --solver tier:window --query x--------
refuse "tier memory" "tiers in use" tictactoe --solver tier --max-memory 2K
refuse "tier work dir is a file" "database directory /dev/null is not a directory" tictactoe \
    --solver tier --work-dir /dev/null
refuse "sweep option" "unknown option 'up'" tictactoe --solver sweep:up
wd=$(mktemp -d)
"$solve" tictactoe --solver tier --work-dir "$wd" --json >/dev/null &&
    "$solve" tictactoe --solver tier --work-dir "$wd" --json |
    jq -e '.solver_stats.tiers_loaded == 10 and .value == "tie" and .positions == 5478' \
        >/dev/null && ok "tier resume from work dir" || bad "tier resume from work dir"
printf 'garbage' >"$wd/tier-0003.gmdb"
refuse "tier corrupt file" "tier-0003.gmdb is truncated" tictactoe --solver tier --work-dir "$wd"
"$solve" tictactoe:misere --solver tier --work-dir "$wd" 2>/tmp/cli_err.$$ >/dev/null
grep -q "another game variant" /tmp/cli_err.$$ && ok "tier foreign work dir" ||
    bad "tier foreign work dir: $(cat /tmp/cli_err.$$)"
rm -rf "$wd" /tmp/cli_err.$$

# Databases on disk (solvers/store.h): saved by a solve, answered from disk.
# refuse_code CODE NAME PART ARGS...: refuse, with exactly exit CODE.
refuse_code() {
    code=$1 rname=$2 rpart=$3
    shift 3
    "$solve" "$@" >/dev/null 2>&1
    rc=$?
    if [ "$rc" -eq "$code" ]; then
        refuse "$rname" "$rpart" "$@"
    else
        bad "$rname (exit $rc, not $code)"
    fi
}
db=$(mktemp -d)
c4=connect4:w=4,h=4
"$solve" $c4 --solver tier --db "$db/t" --json >/dev/null || bad "save $c4"
for p in ----/----/----/---- ----/----/----/x--- ----/----/o---/x--- ----/----/-x--/ox-- \
    ----/xo--/xo--/xo--; do
    mem=$("$solve" $c4 --solver dfs --query "$p" --json | jq -c '.query')
    disk=$("$solve" $c4 --db "$db/t" --query "$p" --json)
    [ "$(echo "$disk" | jq -c '.query')" = "$mem" ] &&
        echo "$disk" | jq -e '.source == "disk" and .counters.do_move == 0' >/dev/null &&
        ok "query $p from disk" || bad "query $p from disk: $disk, in memory: $mem"
done
printf '%s\n' ----/----/----/---- ----/----/----/x--- ----/----/o---/x--- >"$db/in"
n=$("$solve" $c4 --db "$db/t" --query - <"$db/in" | jq -s 'map(select(.source == "disk" and
    .value != null)) | length')
[ "$n" = 3 ] && ok "query - from disk" || bad "query - from disk: $n lines"
j=$("$solve" $c4 --solver dfs --analyze --json | jq -c '[.value, .positions, .wins, .losses,
    .ties, .by_remoteness]')
k=$("$solve" $c4 --db "$db/t" --analyze --json | jq -c '[.value, .positions, .wins, .losses,
    .ties, .by_remoteness]')
[ "$j" = "$k" ] && ok "analyze from disk" || bad "analyze from disk: $k, solve: $j"
"$solve" $c4 --db "$db/t" --verify --threads 2 --json |
    jq -e '.solver_stats.verified_positions == .positions' >/dev/null &&
    ok "verify from disk" || bad "verify from disk"
# --compare (solvers/store_compare.c): retro's database (layout slots)
# against tier's (layout tiers), position by position; every position the
# retro solve reached compared; symbolic:remoteness=0's BDDs against tier's
# by value; then the refusals.
tt=topitop:buckets=1,small=1,large=1,sym
n=$("$solve" $tt --solver retro --db "$db/tr" --json | jq .positions)
"$solve" $tt --solver tier --threads 2 --db "$db/tt" --json >/dev/null || bad "save $tt tier"
j=$("$solve" $tt --db "$db/tt" --compare "$db/tr" --threads 2 --json)
rc=$?
[ "$rc" -eq 0 ] && [ "$n" -gt 0 ] && echo "$j" | jq -e --argjson n "$n" '.source == "compare" and
    .differ == 0 and .compared == $n and .in_both == $n and .a_only == 0 and .b_only == 0 and
    .a.solver == "tier" and .a.layout == "tiers" and .b.solver == "retro" and
    .b.layout == "slots" and .differences == []' >/dev/null &&
    ok "compare retro and tier: equal, $n positions" || bad "compare retro and tier: exit $rc, $j"
"$solve" $tt --db "$db/tr" --compare "$db/tt" --threads 1 | grep -q "^differ      0 (equal" &&
    ok "compare as text" || bad "compare as text"
"$solve" $c4 --solver symbolic:remoteness=0 --db "$db/s0" >/dev/null 2>&1 || bad "save symbolic"
"$solve" $c4 --db "$db/s0" --compare "$db/t" --json | jq -e '.values_only and .differ == 0 and
    .compared == .a.positions' >/dev/null && ok "compare BDDs without remoteness: values" ||
    bad "compare BDDs without remoteness"
# The symbolic solver stopped like a kill (GAMESMAN_SYMBOLIC_STOP=K:
# _exit(86) after K reachable-set and ply files; 4x4 writes 17 sets, then
# 17 plies): in the forward pass (7), after its last set but before the
# manifest that lists them (17: the next run walks forward again), after
# the first ply (18), then twice in runs that read the sets instead of
# walking forward (4, 2: the second counts plies 16 to 13 from their files
# and builds ply 12 only); resumed to the end: the ply files and manifest
# of one run ($db/s0), no reachable set left behind.
for k in 7 17 18 4 2; do
    GAMESMAN_SYMBOLIC_STOP=$k "$solve" $c4 --solver symbolic:remoteness=0 --db "$db/ss" \
        --progress >/dev/null 2>"$db/stop"
    rc=$?
    read_sets=$(grep -c "reachable sets of plies 0 to 16 are read" "$db/stop")
    counted=$(grep -c "counted from its file" "$db/stop")
    case $k in 4) want="1 0" ;; 2) want="1 4" ;; *) want="0 0" ;; esac
    [ "$rc" -eq 86 ] && grep -q "stopped after $k files" "$db/stop" &&
        [ "$read_sets $counted" = "$want" ] && ok "symbolic stopped after $k files" ||
        bad "symbolic stop $k: exit $rc, read $read_sets, counted $counted (want $want)"
done
j=$("$solve" $c4 --solver symbolic:remoteness=0 --db "$db/ss" --json 2>/dev/null)
same=yes
for f in "$db/s0"/ply-*.gmdb "$db/s0/manifest"; do
    cmp -s "$f" "$db/ss/${f##*/}" || same="no: ${f##*/}"
done
[ "$same" = yes ] && [ -z "$(ls "$db/ss" | grep '^reach-')" ] &&
    echo "$j" | jq -e '.solver_stats.resumed_forward == 1' >/dev/null &&
    ok "symbolic resumed to the end: one run's files" ||
    bad "symbolic resumed: same files $same, $(ls "$db/ss" | grep -c '^reach-') reach files, $j"
# A reachable set damaged on disk is refused when a resume reads it.
GAMESMAN_SYMBOLIC_STOP=18 "$solve" $c4 --solver symbolic:remoteness=0 --db "$db/sr" \
    >/dev/null 2>&1
printf 'XXXX' | dd of="$db/sr/reach-0005.gmdb" bs=1 seek=600 conv=notrunc 2>/dev/null
refuse_code 5 "symbolic resume, a damaged reachable set" "reach-0005.gmdb" $c4 \
    --solver symbolic:remoteness=0 --db "$db/sr"
refuse_code 2 "compare without db" "give --db DIR too" $tt --compare "$db/tr"
refuse_code 2 "compare with verify" "does nothing else" $tt --db "$db/tt" --compare "$db/tr" --verify
refuse_code 2 "compare with a solver" "does nothing else" $tt --db "$db/tt" --compare "$db/tr" \
    --solver tier
refuse_code 5 "compare a missing directory" "cannot open the database directory" $tt \
    --db "$db/tt" --compare "$db/nothing"
refuse_code 5 "compare another variant" "holds the database of" $tt --db "$db/tt" --compare "$db/t"
cp -r "$db/tt" "$db/tc"
printf 'XXXX' | dd of="$db/tc/tier-0019.gmdb" bs=1 seek=700 conv=notrunc 2>/dev/null
refuse_code 5 "compare a corrupt file" "tier-0019.gmdb is corrupt" $tt --db "$db/tr" \
    --compare "$db/tc"
"$solve" $tt --db "$db/tt" --compare "$db/tr" --check-args && ok "compare --check-args" ||
    bad "compare --check-args"
# tier:blocks (solvers/tier/blocks.c): a run stopped like a kill after K
# files (GAMESMAN_TIER_BLOCKS_STOP=K: _exit(86); the first 17 are the
# forward pass's bitmaps, then the parts handed to the writer, the part in
# flight lost), K = 3, 12, 10, 25, 40 in turn on the same --db, then
# resumed to the end: tier:window's checksum and counts, with some parts
# loaded and some solved; --query, --analyze and --verify read its parts.
want=$("$solve" $c4 --solver tier:window --threads 2 --json |
    jq -c '[.db_checksum, .value, .remoteness, .positions, .wins, .losses, .ties]')
for k in 3 12 10 25 40; do
    GAMESMAN_TIER_BLOCKS_STOP=$k "$solve" $c4 --solver tier:blocks,part=2048 --threads 2 \
        --db "$db/b" --json >/dev/null 2>"$db/stop"
    rc=$?
    [ "$rc" -eq 86 ] && grep -q "stopped after $k files" "$db/stop" &&
        ok "tier:blocks stopped after $k files" || bad "tier:blocks stop $k: exit $rc"
done
# The tiers solved before the last stop have no bitmap file left (removed
# once their parts were on disk: 17 written, fewer kept), so the resumed run
# walks no tier forward and takes their bits from their records.
n=$(ls "$db/b" | grep -c "^reach-")
[ "$n" -gt 0 ] && [ "$n" -lt 17 ] && ok "tier:blocks removes a solved tier's bitmap file" ||
    bad "tier:blocks bitmap files after the stops: $n of 17"
j=$("$solve" $c4 --solver tier:blocks,part=2048 --threads 2 --db "$db/b" --json --progress \
    2>"$db/resume.err")
[ "$(echo "$j" | jq -c '[.db_checksum, .value, .remoteness, .positions, .wins, .losses,
    .ties]')" = "$want" ] &&
    echo "$j" | jq -e '.solver_stats.blocks_parts_loaded > 0 and
        .solver_stats.blocks_parts_solved > 0' >/dev/null && ! grep -q "reach tier" "$db/resume.err" &&
    ok "tier:blocks resumed after five stops: tier:window's checksum, no forward pass" ||
    bad "tier:blocks resumed: $j, want $want, $(grep -c "reach tier" "$db/resume.err") reach lines"
# The child parts are read mapped (dbstore_file_map), or by pread when
# GAMESMAN_DBSTORE_NO_MAP is set: the same database either way.
for way in map pread; do
    if [ $way = map ]; then
        j=$("$solve" $c4 --solver tier:blocks,part=1000 --threads 2 --db "$db/b$way" --json)
    else
        j=$(GAMESMAN_DBSTORE_NO_MAP=1 "$solve" $c4 --solver tier:blocks,part=1000 --threads 2 \
            --db "$db/b$way" --json)
    fi
    m=$(echo "$j" | jq '.solver_stats.blocks_child_parts_mapped')
    mok=false
    [ $way = map ] && [ "$m" -gt 0 ] && mok=true
    [ $way = pread ] && [ "$m" -eq 0 ] && mok=true
    [ "$(echo "$j" | jq -c '[.db_checksum, .value, .remoteness, .positions, .wins, .losses,
        .ties]')" = "$want" ] && echo "$j" | jq -e '.solver_stats.blocks_child_blocks_read > 0' \
        >/dev/null && $mok &&
        ok "tier:blocks child parts read by $way ($m mapped): tier:window's checksum" ||
        bad "tier:blocks child parts read by $way: $j"
done
p=----/----/o---/x---
[ "$("$solve" $c4 --db "$db/b" --query $p --json | jq -c .query)" = \
    "$("$solve" $c4 --solver dfs --query $p --json | jq -c .query)" ] &&
    ok "tier:blocks database queried" || bad "tier:blocks database queried"
a=$("$solve" $c4 --solver dfs --analyze --json | jq -c '[.value, .positions, .wins, .losses,
    .ties, .by_remoteness]')
k=$("$solve" $c4 --db "$db/b" --analyze --json | jq -c '[.value, .positions, .wins, .losses,
    .ties, .by_remoteness]')
[ "$a" = "$k" ] && ok "tier:blocks database analyzed" ||
    bad "tier:blocks database analyzed: $k, dfs: $a"
"$solve" $c4 --db "$db/b" --verify --threads 2 --json |
    jq -e '.solver_stats.verified_positions == .positions' >/dev/null &&
    ok "tier:blocks database verified" || bad "tier:blocks database verified"
# --verify by parts (solvers/store_verify_parts.c): the same database read
# piece by piece, the child records through the per-thread caches of child
# file blocks (GAMESMAN_VERIFY_PATH=parts: by memory these small tiers are
# checked whole); every tier that way, every position; and a budget that
# fits neither way refused (exit 4) with both estimates.
GAMESMAN_VERIFY_PATH=parts "$solve" $c4 --db "$db/b" --verify --threads 2 --json |
    jq -e '.solver_stats.verified_positions == .positions and
        .solver_stats.verify_tiers_by_parts == 17 and .solver_stats.verify_tiers_whole == 0 and
        .solver_stats.verify_pieces > 17' >/dev/null &&
    ok "tier:blocks database verified by parts" || bad "tier:blocks database verified by parts"
refuse_code 4 "verify refused for memory with both estimates" "--verify of tier .* by parts: " \
    $c4 --db "$db/b" --verify --max-memory 1M
# --verify --journal FILE (solvers/store_journal.c): a verify stopped like a
# kill after K tiers (GAMESMAN_VERIFY_STOP=K: _exit(86), the K-th tier's line
# written first), K = 3, 5, 1, 4 on one journal, then resumed, whole and by
# parts: 13 lines, 13 tiers taken and 4 checked, and the JSON of an
# uninterrupted verify without a journal (the timing fields and the
# journal's own figures aside); then every tier from the journal, as text;
# then its last line cut short (a stop while writing it): dropped with a
# note, that tier checked again, the same text.
strip='del(.wall_seconds, .peak_bytes, .peak_rss_bytes, .solver_stats.journal_tiers,
    .solver_stats.journal_cpu_seconds, .solver_stats.journal_wall_seconds,
    .solver_stats.run_cpu_seconds)'
for way in whole parts; do
    jf="$db/journal-$way"
    vw() { GAMESMAN_VERIFY_PATH=$way "$solve" $c4 --db "$db/b" --verify --threads 2 "$@"; }
    want_j=$(vw --json | jq -cS "$strip")
    want_t=$(vw | grep -v '^time \|^memory ')
    stops=""
    for k in 3 5 1 4; do
        GAMESMAN_VERIFY_STOP=$k vw --journal "$jf" >/dev/null 2>"$db/stop"
        rc=$?
        [ "$rc" -eq 86 ] && grep -q "stopped after $k tier" "$db/stop" || stops="$stops $k:$rc"
    done
    lines=$(grep -c '^tier=' "$jf")
    j=$(vw --json --journal "$jf")
    [ -z "$stops" ] && [ "$lines" -eq 13 ] && [ "$(echo "$j" | jq -cS "$strip")" = "$want_j" ] &&
        echo "$j" | jq -e '.solver_stats.journal_tiers == 13 and
            .solver_stats.verified_positions == .positions' >/dev/null &&
        ok "verify $way stopped after 3, 5, 1, 4 tiers and resumed: an uninterrupted verify's JSON" ||
        bad "verify $way resumed: stops$stops, $lines lines, $j, want $want_j"
    t=$(vw --journal "$jf")
    [ "$(echo "$t" | grep -v '^time \|^memory \|^journal_\|^run_cpu')" = "$want_t" ] &&
        echo "$t" | grep -q "^journal_tiers *17$" &&
        ok "verify $way, every tier from the journal: an uninterrupted verify's text" ||
        bad "verify $way from the journal: $t"
    size=$(wc -c <"$jf")
    truncate -s $((size - 9)) "$jf"
    t=$(vw --journal "$jf" 2>"$db/cut.err")
    [ "$(echo "$t" | grep -v '^time \|^memory \|^journal_\|^run_cpu')" = "$want_t" ] &&
        echo "$t" | grep -q "^journal_tiers *16$" && grep -q "dropped its last line" "$db/cut.err" &&
        [ "$(grep -c '^tier=' "$jf")" -eq 17 ] && [ "$(tail -c 4 "$jf")" = "end" ] &&
        ok "verify $way, a journal's last line cut short: dropped, the tier checked again" ||
        bad "verify $way, a cut journal: $(cat "$db/cut.err") $t"
done
# scripts/measure/verify-vs-solve.sh: the journal's seconds beside a
# solve's progress log of two runs (by hand: the forward pass 2 s, tier 16
# 3 + 1 s, tier 15 4 + 10 s, its first try cut short; 20 s over 2 runs).
printf '%s\n' 'segment start' \
    'tier: reach tier 0 (ply0): 1/1 positions, 0.00 M/s, 2 s elapsed' \
    'tier: solve tier 16 (ply16): 7244/7244 positions, 1.00 M/s, 5 s elapsed' \
    'tier: solve tier 15 (ply15): 10/27000 positions, 1.00 M/s, 9 s elapsed' 'segment start' \
    'tier: solve tier 16 (ply16): 7244/7244 positions, 1.00 M/s, 1 s elapsed' \
    'tier: solve tier 15 (ply15): 27000/27000 positions, 1.00 M/s, 11 s elapsed' >"$db/prog"
vs=$(sh "$(dirname "$0")/../scripts/measure/verify-vs-solve.sh" "$db/prog" "$db/journal-whole")
echo "$vs" | grep -q "^solve: 20 s wall over 2 run(s), 18 s of it in the backward pass$" &&
    echo "$vs" | grep -Eq '^ +16 +7244 +4 ' && echo "$vs" | grep -Eq '^ +15 +[0-9]+ +14 ' &&
    echo "$vs" | grep -q "^forward pass (reach): 2 s" &&
    echo "$vs" | grep -q "^verify: 17 tiers journaled, 161029 positions" &&
    ok "verify-vs-solve.sh: the journal beside a solve of two runs" ||
    bad "verify-vs-solve.sh: $vs"
# A corrupt block in a tier not yet journaled (tier 9; tiers 16, 15, 14
# journaled before the stop): the resumed verify fails with the fresh
# verify's message and exit code, having journaled tiers 13 to 10, not 9.
cp -r "$db/b" "$db/bc"
f=$(ls "$db/bc" | grep '^tier-0009-' | head -n 1)
printf 'XXXX' | dd of="$db/bc/$f" bs=1 seek=560 conv=notrunc 2>/dev/null
"$solve" $c4 --db "$db/bc" --verify --threads 2 >/dev/null 2>"$db/fresh.err"
rc_fresh=$?
GAMESMAN_VERIFY_STOP=3 "$solve" $c4 --db "$db/bc" --verify --threads 2 --journal "$db/jc" \
    >/dev/null 2>&1
"$solve" $c4 --db "$db/bc" --verify --threads 2 --journal "$db/jc" >/dev/null 2>"$db/resumed.err"
rc=$?
[ "$rc_fresh" -ne 0 ] && [ "$rc_fresh" -lt 128 ] && [ "$rc" -eq "$rc_fresh" ] &&
    grep -q "$f" "$db/fresh.err" && cmp -s "$db/fresh.err" "$db/resumed.err" &&
    [ "$(grep -c '^tier=' "$db/jc")" -eq 7 ] && ! grep -q '^tier=9 ' "$db/jc" &&
    ok "verify resumed over a corrupt tier not journaled: the fresh verify's message" ||
    bad "verify over a corrupt tier: exit $rc_fresh, $rc: $(cat "$db/fresh.err") / $(cat "$db/resumed.err")"
# A journal of another database, a file that is not a journal (left as it
# was), a malformed line, and --journal where it means nothing: refused.
"$solve" $tt --db "$db/tt" --verify --threads 2 --journal "$db/jtt" >/dev/null ||
    bad "verify $tt with a journal"
refuse_code 2 "verify with another database's journal" \
    "the journal .* is of another database (spec=topitop" $c4 --db "$db/b" --verify \
    --journal "$db/jtt"
printf 'my notes\n' >"$db/notes"
refuse_code 2 "verify with a file that is not a journal" "is not a --verify journal" $c4 \
    --db "$db/b" --verify --journal "$db/notes"
[ "$(cat "$db/notes")" = "my notes" ] && ok "a file that is not a journal left as it was" ||
    bad "a file that is not a journal changed: $(cat "$db/notes")"
sed '3s/ positions=/ positions=x/' "$db/journal-whole" >"$db/jbad"
refuse_code 5 "verify with a malformed journal line" "line 3 is malformed (no positions=N)" $c4 \
    --db "$db/b" --verify --journal "$db/jbad"
{ cat "$db/journal-whole" && printf 'tier=3 \000 end\n'; } >"$db/jnul"
refuse_code 5 "verify with a journal holding a NUL byte" "holds a NUL byte at offset" $c4 \
    --db "$db/b" --verify --journal "$db/jnul"
refuse_code 2 "journal without verify" "give it with --db DIR --verify" $c4 --db "$db/b" \
    --journal "$db/j0"
refuse_code 2 "journal of a slots database" "holds no tiers (layout slots)" $tt --db "$db/tr" \
    --verify --journal "$db/j0"
# More part files (120) than the process may open (110): the reader keeps
# fewer descriptors (solvers/store.h: 55 here), so queries, the analysis
# and the verification both ways still read every file (6x6 has 20,568
# against a limit of 20,000 on the machine it was solved on).
"$solve" $c4 --sample 300 --seed 3 >"$db/pos"
"$solve" $c4 --db "$db/b" --query - <"$db/pos" >"$db/q-all"
n=$(ls "$db/b" | grep -c '^tier-')
(
    ulimit -n 110 &&
        "$solve" $c4 --db "$db/b" --query - <"$db/pos" >"$db/q-few" &&
        an=$("$solve" $c4 --db "$db/b" --analyze --threads 2 --json) &&
        [ "$(echo "$an" | jq -c '[.value, .positions, .wins, .losses, .ties,
            .by_remoteness]')" = "$a" ] &&
        vw=$("$solve" $c4 --db "$db/b" --verify --threads 2 --json) &&
        echo "$vw" | jq -e '.solver_stats.verified_positions == .positions' >/dev/null &&
        vp=$(GAMESMAN_VERIFY_PATH=parts "$solve" $c4 --db "$db/b" --verify --threads 2 --json) &&
        echo "$vp" | jq -e '.solver_stats.verified_positions == .positions and
            .solver_stats.verify_tiers_by_parts == 17' >/dev/null
) && [ "$n" -gt 100 ] && cmp -s "$db/q-all" "$db/q-few" &&
    ok "tier:blocks database of $n files read with 110 open files at most" ||
    bad "tier:blocks database of $n files with 110 open files at most"
# The query stream answered by 1, 2 and 3 workers (sharing the store:
# 110 open files again, so that descriptors are closed and opened again
# while other workers read), with malformed and blank lines among the
# positions: the same lines in the same order.
{ sed -n 1,100p "$db/pos" && printf 'zzz\n\n' && sed -n '101,$p' "$db/pos" && echo ----; } >"$db/pos-mixed"
for t in 1 2 3; do
    (ulimit -n 110 && "$solve" $c4 --db "$db/b" --query - --threads $t <"$db/pos-mixed" \
        >"$db/q-t$t" 2>/dev/null)
done
[ "$(wc -l <"$db/q-t1")" = 302 ] && cmp -s "$db/q-t1" "$db/q-t2" && cmp -s "$db/q-t1" "$db/q-t3" &&
    [ "$(grep -c '"code":2' "$db/q-t1")" = 2 ] &&
    ok "query stream: 1, 2 and 3 workers answer alike, in order" ||
    bad "query stream: workers differ ($(wc -l <"$db/q-t1") lines)"
# scripts/measure/db-query-bench.sh on the 4x4 database (no cold runs:
# they drop the page cache): every sampled position answered, on 2 workers.
qb=$(COLD_RUNS=0 sh "$(dirname "$0")/../scripts/measure/db-query-bench.sh" $c4 "$db/t" 50 \
    "$solve" 2 2>&1)
echo "$qb" | grep -q "^warm_positions 50 of 50$" &&
    echo "$qb" | grep -q "^warm_queries_per_second [1-9]" &&
    echo "$qb" | grep -q "^cold_query_seconds skipped (COLD_RUNS=0)$" &&
    ok "db-query-bench.sh on 4x4" || bad "db-query-bench.sh on 4x4: $qb"
# scripts/measure/sym-huge-pages.sh on 4x4: one run each way, the same
# value; the huge-page arena used with thp=1 where jemalloc is linked only.
hp=$(SAMPLE_AT=0 sh "$(dirname "$0")/../scripts/measure/sym-huge-pages.sh" "$solve" $c4 0 1 2>&1)
echo "$hp" | awk 'NR == 2 && $1 == 1 && $6 == "tie" && $5 == ($8 == "jemalloc") {a = 1}
    NR == 3 && $1 == 0 && $5 == 0 && $6 == "tie" {b = 1} END {exit !(a && b && NR == 3)}' &&
    ok "sym-huge-pages.sh on 4x4" || bad "sym-huge-pages.sh on 4x4: $hp"
# The same database against search's values (scripts/measure/c4-crosscheck.sh),
# 15 sampled positions of at least 6 discs.
BIN="$solve" sh "$(dirname "$0")/../scripts/measure/c4-crosscheck.sh" $c4 "$db/b" 15 6 3 \
    >"$db/cross" 2>&1 && grep -q "15 positions of .* all equal to search's values" "$db/cross" &&
    ok "tier:blocks database against search (c4-crosscheck.sh)" ||
    bad "c4-crosscheck.sh: $(cat "$db/cross")"
refuse "tier:blocks without --db" "needs --db" $c4 --solver tier:blocks
# The free-disk checks (solvers/tier/files.c, blocks.c), the free space
# given by GAMESMAN_TIER_FREE_DISK. 1000 bytes cannot hold 4x4's bitmaps
# and part headers: refused before anything is written; the same DIR then
# solves to tier:window's checksum once the space is there.
GAMESMAN_TIER_FREE_DISK=1000 "$solve" $c4 --solver tier:blocks --db "$db/full" \
    >/dev/null 2>"$db/full.err"
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] &&
    grep -q "^solve: the forward pass's bitmaps and the part files' headers and block indexes need up to .* which has 1000 B free" \
        "$db/full.err" && ! ls "$db/full" | grep -q "^tier-" &&
    ok "tier:blocks refused on too little free disk" ||
    bad "tier:blocks on 1000 B free: exit $rc, $(cat "$db/full.err")"
[ "$("$solve" $c4 --solver tier:blocks --db "$db/full" --json | jq -c '[.db_checksum, .value,
    .remoteness, .positions, .wins, .losses, .ties]')" = "$want" ] &&
    ok "tier:blocks after the refusal: tier:window's checksum" ||
    bad "tier:blocks after the refusal"
# A test hook that is not a number is refused by name (core/options.h,
# env_int64), not read as 0 or as its first digits.
for h in GAMESMAN_TIER_FREE_DISK=1G GAMESMAN_TIER_BLOCKS_STOP=x GAMESMAN_TIER_BLOCKS_STOP=0; do
    rc=0
    env "$h" "$solve" $c4 --solver tier:blocks --db "$db/hook" >/dev/null 2>"$db/hook.err" || rc=$?
    [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && grep -qF "solve: ${h%%=*} is '${h#*=}': give a number" "$db/hook.err" &&
        ok "tier:blocks refuses $h" || bad "tier:blocks with $h: exit $rc, $(cat "$db/hook.err")"
done
# The MPI layer's piece size (core/dist.c) is read the same way on every
# build, with or without MPI (tests/mpi.sh: on 3 ranks); 64 is its least.
for h in GAMESMAN_DIST_MAX_MSG=1G GAMESMAN_DIST_MAX_MSG=63; do
    rc=0
    env "$h" "$solve" tictactoe >/dev/null 2>"$db/hook.err" || rc=$?
    [ "$rc" -eq 2 ] && grep -qF "solve: ${h%%=*} is '${h#*=}': give a number of bytes" "$db/hook.err" &&
        ok "solve refuses $h" || bad "solve with $h: exit $rc, $(cat "$db/hook.err")"
done
rc=0
GAMESMAN_DIST_MAX_MSG=64 "$solve" tictactoe --json >"$db/hook.out" 2>"$db/hook.err" || rc=$?
[ "$rc" -eq 0 ] && jq -e '.value == "tie"' "$db/hook.out" >/dev/null &&
    ok "solve takes GAMESMAN_DIST_MAX_MSG=64" || bad "GAMESMAN_DIST_MAX_MSG=64: exit $rc, $(cat "$db/hook.err")"
# The projection after the forward pass: 150,000 bytes hold 4x4's bitmaps
# and part headers but not its 161,029 positions at 1 byte each (Tromp's
# count), so the run is refused after its forward pass, with the bitmaps
# kept and no part written; a rerun with the space resumes after them.
GAMESMAN_TIER_FREE_DISK=150000 "$solve" $c4 --solver tier:blocks --db "$db/proj" \
    >/dev/null 2>"$db/proj.err"
rc=$?
[ "$rc" -eq 5 ] && grep -q "^solve: tier:blocks, after the forward pass .* the part files still to write (projected: 1 byte a reachable position.* which has 146.5 KiB free" "$db/proj.err" &&
    ls "$db/proj" | grep -q "^reach-" && ! ls "$db/proj" | grep -q "^tier-" &&
    ok "tier:blocks refused after its forward pass on the projection" ||
    bad "tier:blocks on 150000 B free: exit $rc, $(cat "$db/proj.err")"
j=$("$solve" $c4 --solver tier:blocks --db "$db/proj" --progress --json 2>"$db/proj.err")
[ "$(echo "$j" | jq -c '[.db_checksum, .value, .remoteness, .positions, .wins, .losses,
    .ties]')" = "$want" ] && ! grep -q "reach tier" "$db/proj.err" &&
    ok "tier:blocks resumed after the projection's refusal, no forward pass" ||
    bad "tier:blocks after the projection's refusal: $j"
# The projection counts the bitmap files the backward pass removes as it
# goes: 4x4's parts at 1 byte a position come to 234 KiB, less its bitmap
# files (some 32 KB) once their tiers are solved, 203 KiB at most; 220,000
# bytes free are enough.
rm -rf "$db/proj2"
j=$(GAMESMAN_TIER_FREE_DISK=220000 "$solve" $c4 --solver tier:blocks --db "$db/proj2" --json \
    2>"$db/proj2.err" | jq -c '[.db_checksum, .value, .remoteness, .positions, .wins, .losses,
    .ties]')
[ "$j" = "$want" ] && ok "tier:blocks' projection less the bitmap files it removes" ||
    bad "tier:blocks on 220000 B free: $j, $(tail -1 "$db/proj2.err")"
# 5 MB free: less than 5x4's 6.3 MB of raw records (the old bound, which
# refused it), more than its 3,945,711 positions at 1 byte: solved, to
# tier:window's checksum.
c54="connect4:w=5,h=4"
w54=$("$solve" $c54 --solver tier:window --threads 2 --json | jq -c '[.db_checksum, .positions]')
j=$(GAMESMAN_TIER_FREE_DISK=5000000 "$solve" $c54 --solver tier:blocks --threads 2 \
    --db "$db/c54" --json 2>"$db/c54.err" | jq -c '[.db_checksum, .positions]')
[ "$j" = "$w54" ] && ok "tier:blocks solves 5x4 on 5 MB free (projection under the raw bound)" ||
    bad "tier:blocks on 5 MB free: $j, want $w54, $(tail -1 "$db/c54.err")"
refuse "tier:positions without estimate" "goes with tier:estimate only" $c4 --solver \
    tier:positions=161029
# tier:estimate,positions=N: the disk projection counts N positions at 1
# byte each (1000 more positions, 1000 more bytes).
e1=$("$solve" $c4 --solver tier:estimate,blocks,positions=161029 --json 2>/dev/null |
    jq .solver_stats.est_blocks_disk_bytes)
e2=$("$solve" $c4 --solver tier:estimate,blocks,positions=162029 --json 2>/dev/null |
    jq .solver_stats.est_blocks_disk_bytes)
[ -n "$e1" ] && [ "$e1" != null ] && [ "$((e2 - e1))" = 1000 ] &&
    ok "tier:estimate,positions=N sets the disk projection" ||
    bad "tier:estimate,positions=N: $e1 then $e2"
# tier:estimate with --db DIR (DIR not made): runs, writes nothing (DIR
# still absent) and looks at the free disk where DIR would be made, which
# df reports too (within 1 GB: other programs write meanwhile).
j=$("$solve" $c4 --solver tier:estimate,blocks --db "$db/est/sub" --json 2>"$db/est.err")
rc=$?
free=$(df -B1 --output=avail "$db" | tail -1)
[ "$rc" -eq 0 ] && [ ! -e "$db/est" ] && grep -q "nothing written in $db/est/sub" "$db/est.err" &&
    echo "$j" | jq -e --argjson f "$free" '.solver_stats.estimate_only == 1 and
        (.solver_stats.est_disk_free_bytes - $f | fabs) < 1e9' >/dev/null &&
    ok "tier:estimate with --db: writes nothing, checks DIR's disk" ||
    bad "tier:estimate with --db: exit $rc, $(cat "$db/est.err" | tail -1)"
"$solve" tictactoe --solver retro --db "$db/r" --json >/dev/null
k=$("$solve" tictactoe --db "$db/r" --analyze --json | jq -c '[.solver, .value, .positions,
    .wins, .losses, .ties, .draws]')
[ "$k" = '["retro","tie",5478,2836,1574,1068,0]' ] && ok "retro saved, analyzed from disk" ||
    bad "retro from disk: $k"
# Databases of format 1 (record files without dictionaries), written by the
# build of a59cd2e before format 2 (tests/data/format1-*, the lock file
# left out): this build reads them and answers as a solve does.
for s in tier retro; do
    d=$(dirname "$0")/data/format1-tictactoe-$s
    k=$("$solve" tictactoe --db "$d" --analyze --json | jq -c '[.solver, .value, .positions,
        .wins, .losses, .ties, .by_remoteness]')
    j=$("$solve" tictactoe --solver $s --analyze --json | jq -c '[.solver, .value, .positions,
        .wins, .losses, .ties, .by_remoteness]')
    q=$("$solve" tictactoe --db "$d" --query xo------- --json 2>&1 | jq -c .query)
    m=$("$solve" tictactoe --solver $s --query xo------- --json | jq -c .query)
    [ "$k" = "$j" ] && [ "$q" = "$m" ] && [ "$q" != null ] &&
        "$solve" tictactoe --db "$d" --verify --json |
        jq -e '.solver_stats.verified_positions == 5478' >/dev/null &&
        ok "format 1 database ($s) read" || bad "format 1 database ($s): $k $q, solve: $j $m"
done
# A sector database (tier:sector: three men's morris's sector of three
# stones each on the board, tier 49) is partial: its positions (reachable
# ones, from --sample, so that retro answers them too) answer as retro's
# whole solve does, a position of another tier is refused (exit 5).
# With sym too: its tier files are indexed by classes (games/morris.c,
# morris_index_of), the queries by the board as given; with sym,swap the
# sector holds white to move only (the colour swap), and the answers, for
# either player to move, are still the plain variant's.
"$solve" morris:n=3 --solver tier:sector=49 --db "$db/m3" --json >/dev/null
"$solve" morris:n=3,sym --solver tier:sector=49 --db "$db/m3s" --json >/dev/null
"$solve" morris:n=3,sym,swap --solver tier:sector=49 --db "$db/m3w" --json >/dev/null
for p in $("$solve" morris:n=3 --sample 300 --seed 1 | grep ':0:0:' | head -n 8); do
    for v in morris:n=3 morris:n=3,sym morris:n=3,sym,swap; do
        d="$db/m3"
        [ "$v" = morris:n=3,sym ] && d="$db/m3s"
        [ "$v" = morris:n=3,sym,swap ] && d="$db/m3w"
        k=$("$solve" "$v" --db "$d" --query "$p" --json | jq -c .query)
        j=$("$solve" morris:n=3 --solver retro --query "$p" --json | jq -c .query)
        [ "$k" = "$j" ] && [ "$k" != null ] && ok "sector database query $v $p" ||
            bad "sector database query $v $p: $k, retro: $j"
    done
done
"$solve" morris:n=3 --db "$db/m3" --verify --json | jq -e '.solver_stats.partial_tiers > 0 and
    .solver_stats.partial_tiers < .solver_stats.tiers and .solver_stats.verified_positions > 0' \
    >/dev/null && ok "sector database verified" || bad "sector database verify"
# --compare of a partial database (the sector alone) against retro's
# complete one: the positions retro reached in the tiers the sector
# database lacks are differences (exit 1), none the other way.
"$solve" morris:n=3 --solver retro --db "$db/m3r" --json >"$db/m3r.json"
rc=0
j=$("$solve" morris:n=3 --db "$db/m3" --compare "$db/m3r" --json) || rc=$?
[ "$rc" = 1 ] && echo "$j" | jq -e --slurpfile r "$db/m3r.json" '.a.partial and (.b.partial | not)
    and .b_only > 0 and .a_only == 0 and .differ == .b_only and .in_both > 0 and
    .in_both + .b_only == $r[0].positions and .a_beyond > 0' >/dev/null &&
    ok "compare a partial database: the complete side's other tiers differ" ||
    bad "compare a partial database: exit $rc, $j"
refuse_code 5 "sector database: a tier not there" "a partial database" morris:n=3 --db "$db/m3" \
    --query ---------:3:3:w
refuse_code 2 "db with a root-only solver" "solves the initial position only" tictactoe \
    --solver minimax --db "$db/m"
# The search (solvers/search.c) from the empty board down to the sector
# database: the value retro gives the whole game, for each variant; without
# a database a loopy game is refused, and so are a query and a game with
# WinBy scores (it computes values only).
r=$("$solve" morris:n=3 --solver retro --json | jq -r .value)
for v in morris:n=3 morris:n=3,sym morris:n=3,sym,swap; do
    d="$db/m3"
    [ "$v" = morris:n=3,sym ] && d="$db/m3s"
    [ "$v" = morris:n=3,sym,swap ] && d="$db/m3w"
    j=$("$solve" "$v" --solver search --db "$d" --json)
    echo "$j" | jq -e --arg r "$r" '.value == $r and .solver_stats.db_leaves > 0 and
        .solver_stats.search_nodes > 0' >/dev/null && ok "search down to sectors $v ($r)" ||
        bad "search down to sectors $v: $j, retro: $r"
done
refuse "search, loopy, no database" "needs --db DIR" morris:n=3 --solver search
# --query P: the value of P by a search from P (value only, no moves), as
# retro gives it, for 40 sampled positions (17 of them with stones in
# hand); a bad position and --query - refused.
n=0
for p in $("$solve" morris:n=3 --sample 400 --seed 5 | sort -u | head -n 40); do
    k=$("$solve" morris:n=3,sym,swap --solver search --db "$db/m3w" --query "$p" --json |
        jq -c '[.query.position, .query.value, .query.moves, .value]')
    j=$("$solve" morris:n=3 --solver retro --query "$p" --json |
        jq -c '[.query.position, .query.value, null, .query.value]')
    [ "$k" = "$j" ] && n=$((n + 1))
done
[ "$n" = 40 ] && ok "search --query: 40 sampled positions valued as retro values them" ||
    bad "search --query: $n of 40 sampled positions valued as retro values them"
refuse "search with a query stream" "give --query POSITION" morris:n=3 --solver search \
    --db "$db/m3" --query -
refuse "search --query, a bad position" "expected 9 points" morris:n=3 --solver search --db "$db/m3" --query xyz
refuse "search on scores" "computes values only" othello --solver search
# The placement tiers one by one (scripts/morris/placement-solve.sh) over
# the sectors of three men's morris (sym,swap): a record for each of its 34
# placement tiers (hands 3-3, 2-3, 2-2, 1-2, 1-1, 0-1 in white-black order:
# 1 + 2 + 4 + 6 + 9 + 12 boards counts), the empty board's value retro's,
# a second run solving nothing, and placement positions answered from disk
# as retro answers them (value, remoteness and every move's).
cp -r "$db/m3w" "$db/m3p"
scripts=$(dirname "$0")/../scripts
NOLOCK=1 BIN=$solve "$scripts/morris/placement-solve.sh" -n 3 -d "$db/m3p" -o "$db/m3p-out" \
    >/dev/null 2>"$db/m3p.err" && ok "placement series runs" || bad "placement series: $(cat "$db/m3p.err")"
recs="$db/m3p-out/placement.jsonl"
[ "$(wc -l <"$recs")" = 34 ] && ok "placement series: 34 tiers" ||
    bad "placement series: $(wc -l <"$recs") records, not 34"
jq -e --arg r "$r" 'select(.tier == 0) | .value == $r and .positions == 1' "$recs" >/dev/null &&
    ok "placement series: the empty board is retro's $r" || bad "placement series: tier 0 not $r"
# The partial database that holds the initial tier reports the initial
# position's value from its record; the sectors alone do not have it.
"$solve" morris:n=3,sym,swap --db "$db/m3p" --analyze --json | jq -e --arg r "$r" '.value == $r' \
    >/dev/null && ok "placement series: the database's value is retro's $r" ||
    bad "placement series: the database's value is not $r"
"$solve" morris:n=3,sym,swap --db "$db/m3w" --analyze --json | jq -e '.value == "undecided"' \
    >/dev/null && ok "sectors alone: no value for the empty board" ||
    bad "sectors alone: a value for the empty board"
NOLOCK=1 BIN=$solve "$scripts/morris/placement-solve.sh" -n 3 -d "$db/m3p" -o "$db/m3p-out" \
    >"$db/m3p.again" 2>&1 && [ ! -s "$db/m3p.again" ] && [ "$(wc -l <"$recs")" = 34 ] &&
    ok "placement series: a second run solves nothing" || bad "placement series: second run"
n=0
for p in $("$solve" morris:n=3 --sample 300 --seed 2 | grep -v ':0:0:' | head -n 10); do
    k=$("$solve" morris:n=3,sym,swap --db "$db/m3p" --query "$p" --json | jq -c .query)
    j=$("$solve" morris:n=3 --solver retro --query "$p" --json | jq -c .query)
    [ "$k" = "$j" ] && [ "$k" != null ] && n=$((n + 1))
done
[ "$n" = 10 ] && ok "placement series: 10 placement positions answer as retro's" ||
    bad "placement series: $n of 10 placement positions answer as retro's"
# The series' database (every tier, each with every legal position)
# against tier's (the reachable ones): equal by --compare, every position
# of tier's in both, more beyond them.
"$solve" morris:n=3,sym,swap --solver tier --db "$db/m3t" --json >"$db/m3t.json"
j=$("$solve" morris:n=3,sym,swap --db "$db/m3p" --compare "$db/m3t" --json) &&
    echo "$j" | jq -e --slurpfile t "$db/m3t.json" '.differ == 0 and .in_both == $t[0].positions and
        .a_only == 0 and .b_only == 0 and .a_beyond > 0' >/dev/null &&
    ok "placement series: its database equals tier's by --compare" ||
    bad "placement series: --compare with tier's: $j"
# The placement tiers with 3 or more stones in hand checked from disk
# (scripts/morris/placement-verify.sh): exactly those tiers verified, their
# positions the records' sum, the 9 tiers of hands 1-1 linked as their
# children but not verified.
NOLOCK=1 BIN=$solve "$scripts/morris/placement-verify.sh" -n 3 -d "$db/m3p" -o "$db/m3p-out" \
    -k 3 >"$db/m3v.out" 2>&1 || bad "placement verify: $(cat "$db/m3v.out")"
want=$(jq -rs '[.[] | select((.hands | split("-") | map(tonumber) | add) >= 3)]
    | "\(length) verified (\(map(.positions) | add) positions), 9 unverified"' "$recs")
grep -qF "22 tiers linked: $want" "$db/m3v.out" && ok "placement verify: $want" ||
    bad "placement verify: $(cat "$db/m3v.out"), want $want"
# The placement tiers' values against the search over the sectors alone
# (scripts/morris/placement-crosscheck.sh): 30 sampled placement positions.
NOLOCK=1 BIN=$solve "$scripts/morris/placement-crosscheck.sh" -n 3 -d "$db/m3p" -o "$db/m3p-out" \
    -N 30 -H 6 >"$db/m3x.out" 2>&1 &&
    grep -q "^30 placement positions .*: 30 valued alike .* 0 differ" "$db/m3x.out" &&
    ok "placement crosscheck: 30 positions, the tiers and the search agree" ||
    bad "placement crosscheck: $(cat "$db/m3x.out")"
# The series' scripts have no default database (no machine's path): with
# neither -d nor MORRIS_DB they refuse (exit 2, naming both) and run nothing.
for s in sector-solve placement-solve opening placement-verify placement-crosscheck placement-halfway; do
    rc=0
    env -u MORRIS_DB NOLOCK=1 BIN=false "$scripts/morris/$s.sh" -n 3 -o "$db/nodb-$s" 3-3 \
        >/dev/null 2>"$db/nodb.err" || rc=$?
    [ "$rc" = 2 ] && grep -q "needs the database directory: -d DB, or MORRIS_DB=DB" "$db/nodb.err" &&
        [ ! -e "$db/nodb-$s" ] && ok "morris/$s.sh without -d or MORRIS_DB: refused" ||
        bad "morris/$s.sh without -d or MORRIS_DB: exit $rc, $(cat "$db/nodb.err")"
done
# Bagh Chal's placement series (scripts/baghchal/placement-solve.sh) over
# its sliding tiers (scripts/baghchal/sliding-solve.sh), on 4x4 with 4
# goats and 2 captures (sym; the whole 4x4 game costs some 25 s of CPU
# here and retro 150 s): a record for each placement tier, their number
# 2 x the pairs (hand h from 1 to the goats, captured c up to
# min(captures, goats - h)), their names the listing's; the initial
# tier's value and remoteness retro's; a second run solving nothing;
# placement positions answered from disk as retro's database answers them
# (value, remoteness and every move's).
bplan=$(dirname "$solve")/tier-plan
[ -x "$bplan" ] || bplan=build/release/bin/tier-plan
if [ -x "$bplan" ]; then
    bc=baghchal:n=4,goats=4,captures=2,sym
    bs="$scripts/baghchal"
    NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/sliding-solve.sh" -n 4 -v goats=4,captures=2,sym \
        -d "$db/b4" -o "$db/b4-out" >/dev/null 2>"$db/b4.err" &&
        NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-solve.sh" -n 4 -v goats=4,captures=2,sym \
            -d "$db/b4" -o "$db/b4-out" -m 1G >/dev/null 2>"$db/b4.err" &&
        ok "baghchal placement series runs" || bad "baghchal placement series: $(cat "$db/b4.err")"
    brecs="$db/b4-out/placement.jsonl"
    want=$(awk 'BEGIN { for (h = 4; h >= 1; h--) for (c = 0; c <= 2 && c <= 4 - h; c++) p++; print 2 * p }')
    "$bplan" "$bc" --list >"$db/b.list4"
    awk '$2 ~ /^hand/ { print $2 }' "$db/b.list4" | sort >"$db/b4.names"
    [ "$want" = 18 ] && [ "$(wc -l <"$brecs")" = "$want" ] && [ "$(wc -l <"$db/b4.names")" = "$want" ] &&
        jq -r .name "$brecs" | sort | cmp -s - "$db/b4.names" &&
        ok "baghchal placement series: a record for each of its $want placement tiers" ||
        bad "baghchal placement series: $(wc -l <"$brecs") records, want $want"
    "$solve" "$bc" --solver retro --db "$db/b4r" --json >"$db/b4r.json"
    jq -se --slurpfile r "$db/b4r.json" 'map(select(.tier == 0)) | length == 1 and
        (.[0] | .value == $r[0].value and .remoteness == $r[0].remoteness and .name == "hand4-cap0-G")' \
        "$brecs" >/dev/null &&
        ok "baghchal placement series: the initial tier's value is retro's $(jq -r .value "$db/b4r.json")" ||
        bad "baghchal placement series: tier 0: $(grep '"tier":0,' "$brecs"), retro: $(cat "$db/b4r.json")"
    NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-solve.sh" -n 4 -v goats=4,captures=2,sym \
        -d "$db/b4" -o "$db/b4-out" -m 1G >"$db/b4.again" 2>&1 && [ ! -s "$db/b4.again" ] &&
        [ "$(wc -l <"$brecs")" = "$want" ] && ok "baghchal placement series: a second run solves nothing" ||
        bad "baghchal placement series: second run: $(cat "$db/b4.again")"
    # The series' table (scripts/baghchal/placement-table.sh): each tier's
    # positions Burnside's count of its boards (burnside.awk, the board's
    # geometry alone); a record whose count is one off fails it, naming
    # the tier.
    tbl="$scripts/baghchal/placement-table.sh"
    sh "$tbl" -n 4 -g 4 -k 2 "$brecs" >"$db/b4t.out" 2>&1 &&
        grep -q "^| all | 18 of 18 | .* | yes |" "$db/b4t.out" &&
        grep -qF "The initial position (tier 0): $(jq -r .value "$db/b4r.json") in" "$db/b4t.out" &&
        ok "baghchal placement table: 18 tiers, each Burnside's count" ||
        bad "baghchal placement table: $(cat "$db/b4t.out")"
    jq -c 'if .tier == 3 then .positions += 1 else . end' "$brecs" >"$db/b4t.bad"
    rc=0
    sh "$tbl" -n 4 -g 4 -k 2 "$db/b4t.bad" >/dev/null 2>"$db/b4t.err" || rc=$?
    [ "$rc" = 1 ] && grep -q "counts differ from Burnside: 3 (hand" "$db/b4t.err" &&
        ok "baghchal placement table: a count one off refused" ||
        bad "baghchal placement table: a count one off: exit $rc, $(cat "$db/b4t.err")"
    # A draw at tier 0 is printed without a remoteness (the solvers write 0).
    jq -c 'if .tier == 0 then .value = "draw" | .remoteness = 0 else . end' "$brecs" >"$db/b4t.draw"
    sh "$tbl" -n 4 -g 4 -k 2 "$db/b4t.draw" 2>&1 | grep -qxF "The initial position (tier 0): a draw." &&
        ok "baghchal placement table: a draw at tier 0 without a remoteness" ||
        bad "baghchal placement table: a draw at tier 0: $(sh "$tbl" -n 4 -g 4 -k 2 "$db/b4t.draw" 2>&1 | tail -n 1)"
    # A second run of the whole series into a new database, compared tier by
    # tier with the first (scripts/series-compare.sh): the 3 sliding and 18
    # placement tiers' counts equal; a placement record and a sliding
    # tier's counts changed in a copy are each named, and fail it.
    NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/sliding-solve.sh" -n 4 -v goats=4,captures=2,sym \
        -d "$db/b4b" -o "$db/b4b-out" >/dev/null 2>"$db/b4b.err" &&
        NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-solve.sh" -n 4 -v goats=4,captures=2,sym \
            -d "$db/b4b" -o "$db/b4b-out" -m 1G >/dev/null 2>"$db/b4b.err" &&
        sh "$scripts/series-compare.sh" "$db/b4-out" "$db/b4b-out" >"$db/b4c.out" 2>&1 &&
        grep -qx "$((want + 3)) tiers in both: all equal" "$db/b4c.out" &&
        ok "series-compare.sh: a second run of the series, $((want + 3)) tiers equal" ||
        bad "series-compare.sh: second run: $(cat "$db/b4b.err" "$db/b4c.out")"
    mkdir -p "$db/b4x-out"
    jq -c 'if .tier == 3 then .wins += 1 | .losses -= 1 else . end' "$db/b4b-out/placement.jsonl" \
        >"$db/b4x-out/placement.jsonl"
    for f in "$db"/b4b-out/slide-*.json; do
        jq -c 'if .solver_stats.sector == '"$(jq .solver_stats.sector "$db/b4b-out/slide-1.json")"' then
            .solver_stats.sector_draws += 1 else . end' "$f" >"$db/b4x-out/$(basename "$f")"
    done
    rc=0
    sh "$scripts/series-compare.sh" "$db/b4-out" "$db/b4x-out" >"$db/b4x.out" 2>&1 || rc=$?
    [ "$rc" = 1 ] && grep -q "^tier 3: " "$db/b4x.out" && grep -q "^tier slide-1: " "$db/b4x.out" &&
        grep -qx "$((want + 3)) tiers in both: 2 differ" "$db/b4x.out" &&
        ok "series-compare.sh: a changed record and sliding tier named" ||
        bad "series-compare.sh: changed: exit $rc, $(cat "$db/b4x.out")"
    n=0
    for p in $("$solve" "$bc" --sample 300 --seed 2 | awk -F: '$3 > 0' | sort -u | head -n 12); do
        k=$("$solve" "$bc" --db "$db/b4" --query "$p" --json | jq -c .query)
        j=$("$solve" "$bc" --db "$db/b4r" --query "$p" --json | jq -c .query)
        [ "$k" = "$j" ] && [ "$k" != null ] && n=$((n + 1))
    done
    [ "$n" = 12 ] && ok "baghchal placement series: 12 placement positions answer as retro's" ||
        bad "baghchal placement series: $n of 12 placement positions answer as retro's"
    # The order (a dry run of the whole 4x4 and 5x5 games, nothing solved):
    # hands ascending, in each hand the goats' tiers before the tigers',
    # and every tier after its children (the listing's last column; the
    # sliding tiers come before them all).
    for v in n=4 n=5; do
        "$bplan" "baghchal:$v,sym" --list >"$db/b.list"
        out=$(DRY_RUN=1 BIN="$solve" TIER_PLAN=$bplan "$bs/placement-solve.sh" -n "${v#n=}" \
            -d "$db/nonexistent" -o "$db/nonexistent" 2>&1)
        bad_order=$(echo "$out" | awk '{ sub(/:$/, "", $3); print "order", $3 }' |
            cat - "$db/b.list" | awk '
            $1 == "order" { n++; at[$2] = n; name[n] = $2; next }
            $2 ~ /^hand/ { placement++; kids[$2] = $6 }
            END {
                if (n != placement || n == 0) { print "tiers", n, "of", placement; exit }
                for (i = 1; i <= n; i++) {
                    split(name[i], f, "-"); sub(/^hand/, "", f[1]); f[1] += 0
                    if (i > 1 && (f[1] < hand || (f[1] == hand && f[3] < side)))
                        print "out of order:", name[i]
                    hand = f[1]; side = f[3]
                    k = split(kids[name[i]], c, ",")
                    for (j = 1; j <= k; j++)
                        if (c[j] ~ /^hand/ && !(at[c[j]] < i)) print name[i], "before its child", c[j]
                }
            }')
        [ -z "$bad_order" ] && [ ! -e "$db/nonexistent" ] &&
            ok "baghchal placement series: $v's order respects the moves" ||
            bad "baghchal placement series: $v's order: $(echo "$bad_order" | head -n 2)"
    done
    # The placement tiers with 3 or more goats in hand checked from disk
    # (scripts/baghchal/placement-verify.sh, scripts/placement-verify.sh):
    # the tiers of 2 or more linked, and verified exactly those whose
    # children (the listing's last column) are all linked, their positions
    # the records' sum.
    NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-verify.sh" -n 4 -v goats=4,captures=2,sym \
        -d "$db/b4" -o "$db/b4-out" -m 1G -k 3 >"$db/b4v.out" 2>&1 ||
        bad "baghchal placement verify: $(cat "$db/b4v.out")"
    "$bplan" "$bc" --list | awk '$2 ~ /^hand/ { h = $2; sub(/^hand/, "", h); sub(/-.*/, "", h)
        if (h + 0 >= 2) { linked[$2] = 1; kids[$2] = $6; n++ } }
        END { for (t in linked) { k = split(kids[t], c, ","); all = 1
                  for (j = 1; j <= k; j++) if (c[j] != "-" && !(c[j] in linked)) all = 0
                  if (all) print t }
              print n > "/dev/stderr" }' 2>"$db/b4v.n" | sort >"$db/b4v.want"
    want=$(jq -rs --rawfile w "$db/b4v.want" --argjson n "$(cat "$db/b4v.n")" '($w | split("\n")
        | map(select(. != ""))) as $names | [.[] | select(.name as $x | $names | index($x))]
        | "\($n) tiers linked: \(length) verified (\(map(.positions) | add) positions), \($n - length) unverified"' \
        "$brecs")
    grep -qxF "$want" "$db/b4v.out" && ok "baghchal placement verify: $want" ||
        bad "baghchal placement verify: $(cat "$db/b4v.out"), want $want"
    # ... and with a journal (-j): stopped once 2 tiers passed
    # (GAMESMAN_VERIFY_STOP, as a kill), then run again by the same
    # command, which prints the same line, 2 tiers taken from the journal.
    rc=0
    GAMESMAN_VERIFY_STOP=2 NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-verify.sh" -n 4 \
        -v goats=4,captures=2,sym -d "$db/b4" -o "$db/b4-out" -m 1G -k 3 -j >"$db/b4j.out" 2>&1 || rc=$?
    NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-verify.sh" -n 4 -v goats=4,captures=2,sym \
        -d "$db/b4" -o "$db/b4-out" -m 1G -k 3 -j >"$db/b4j2.out" 2>&1 || bad "baghchal placement verify -j: $(cat "$db/b4j2.out")"
    [ "$rc" = 86 ] && grep -qxF "$want" "$db/b4j2.out" &&
        jq -e '.solver_stats.journal_tiers == 2' "$db/b4-out/placement-verify-3.json" >/dev/null &&
        ok "baghchal placement verify -j: stopped after 2 tiers, resumed: $want" ||
        bad "baghchal placement verify -j: exit $rc, then $(cat "$db/b4j2.out"), journal_tiers $(jq .solver_stats.journal_tiers "$db/b4-out/placement-verify-3.json")"
    # The whole database (-k 1), stopped after K tiers: the resumed run
    # takes all K from the journal. A tigers' tier has its hand's goats'
    # tier, numbered before it, as a child: checked in descending numbers,
    # a stop after a tigers' tier left it to be checked again on every
    # resume (its child not taken yet), so that fewer than K were taken.
    for k in 5 8 14 20; do
        rm -f "$db/b4-out/placement-verify-1.journal"
        rc=0
        GAMESMAN_VERIFY_STOP=$k NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-verify.sh" -n 4 \
            -v goats=4,captures=2,sym -d "$db/b4" -o "$db/b4-out" -m 1G -k 1 -j >"$db/b4j.out" 2>&1 || rc=$?
        NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-verify.sh" -n 4 -v goats=4,captures=2,sym \
            -d "$db/b4" -o "$db/b4-out" -m 1G -k 1 -j >"$db/b4j2.out" 2>&1 || bad "baghchal whole verify -j: $(cat "$db/b4j2.out")"
        [ "$rc" = 86 ] && grep -qx "21 tiers linked: 21 verified ([0-9]* positions), 0 unverified" "$db/b4j2.out" &&
            jq -e --argjson k "$k" '.solver_stats.journal_tiers == $k' "$db/b4-out/placement-verify-1.json" >/dev/null &&
            ok "baghchal whole verify -j: stopped after $k tiers, resumed with all $k taken" ||
            bad "baghchal whole verify -j, stopped after $k: exit $rc, then $(cat "$db/b4j2.out"), journal_tiers $(jq .solver_stats.journal_tiers "$db/b4-out/placement-verify-1.json")"
    done
    # scripts/journal-summary.sh over that journal: its 21 tiers and the
    # verify's positions; with its last line cut short (no newline), one
    # tier fewer; a tier's line twice (checked again), counted once; a file
    # that is not a journal refused.
    bj="$db/b4-out/placement-verify-1.journal"
    vpos=$(jq .solver_stats.verified_positions "$db/b4-out/placement-verify-1.json")
    head -c -1 "$bj" >"$db/bj-cut"
    "$scripts/journal-summary.sh" "$bj" >"$db/bj.sum" 2>&1 &&
        grep -q "^21 tiers passed (21 lines), $vpos positions, " "$db/bj.sum" &&
        [ "$(sed -n 2p "$db/bj.sum")" = "$(seq -s ' ' 0 20)" ] &&
        "$scripts/journal-summary.sh" "$db/bj-cut" | grep -q "^20 tiers passed (20 lines), " &&
        { cat "$bj"; sed -n 2p "$bj"; } >"$db/bj-again" &&
        "$scripts/journal-summary.sh" "$db/bj-again" | grep -q "^21 tiers passed (22 lines), $vpos positions, " &&
        ! "$scripts/journal-summary.sh" "$brecs" >/dev/null 2>&1 &&
        ok "journal-summary.sh: 21 tiers, $vpos positions; a cut line left out, a line twice counted once; not a journal refused" ||
        bad "journal-summary.sh: $(cat "$db/bj.sum"), want 21 tiers and $vpos positions"
    # The series' database against retro's and tier's by --compare
    # (solvers/store_compare.c): every position they reached in both and
    # equal, the others the series holds (the records' and the sliding
    # runs' positions, less those) beyond them, not differences; without
    # one placement tier (hand1-cap0-T) its reached positions differ (the
    # complete side not covered: exit 1), and the others held are the
    # series' less that tier's.
    "$solve" "$bc" --solver tier --db "$db/b4t" --json >/dev/null
    held=$({ jq .positions "$brecs"; jq .solver_stats.sector_positions "$db"/b4-out/slide-*.json; } |
        jq -s add)
    for d in b4r b4t; do
        j=$("$solve" "$bc" --db "$db/b4" --compare "$db/$d" --json) &&
            echo "$j" | jq -e --slurpfile r "$db/b4r.json" --argjson held "$held" '.differ == 0 and
            .in_both == $r[0].positions and .a_beyond == $held - $r[0].positions and .a_only == 0 and
            .b_only == 0 and .b_beyond == 0' >/dev/null &&
            ok "baghchal placement series: its database equals $d's by --compare ($held held)" ||
            bad "baghchal placement series: --compare with $d: $j"
    done
    mkdir "$db/b4m"
    gone=$(awk '$2 == "hand1-cap0-T" { print $5 }' "$db/b.list4")
    for f in "$db"/b4/tier-*.gmdb; do
        [ "$(basename "$f")" = "$gone" ] || ln "$f" "$db/b4m/"
    done
    "$solve" "$bc" --solver tier:sector=0 --db "$db/b4m" >/dev/null
    rc=0
    j=$("$solve" "$bc" --db "$db/b4m" --compare "$db/b4t" --threads 1 --json) || rc=$?
    left=$((held - $(jq 'select(.name == "hand1-cap0-T") | .positions' "$brecs")))
    [ -n "$gone" ] && [ "$rc" = 1 ] && echo "$j" | jq -e --slurpfile r "$db/b4r.json" --argjson left "$left" '
        .b_only > 0 and .differ == .b_only and .a_only == 0 and .in_both + .b_only == $r[0].positions
        and .in_both + .a_beyond == $left and (.differences[0].a == null)' >/dev/null &&
        ok "baghchal placement series: a tier missing, --compare finds its positions" ||
        bad "baghchal placement series: a tier missing ($gone): exit $rc, $j"
    # The placement tiers' values against the search over the sliding
    # tiers alone (scripts/baghchal/placement-crosscheck.sh): 20 sampled
    # placement positions with at most 3 goats in hand.
    NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-crosscheck.sh" -n 4 -v goats=4,captures=2,sym \
        -d "$db/b4" -o "$db/b4-out" -m 1G -N 20 -H 3 >"$db/b4x.out" 2>&1 &&
        grep -q "^20 placement positions .*: 20 valued alike .* 0 differ" "$db/b4x.out" &&
        ok "baghchal placement crosscheck: 20 positions, the tiers and the search agree" ||
        bad "baghchal placement crosscheck: $(cat "$db/b4x.out")"
    # The initial position's value by search from the empty board down to
    # the sliding tiers alone (the crosscheck's links, DB-sectors): retro's.
    j=$("$solve" "$bc" --solver search --db "$db/b4-sectors" --json)
    echo "$j" | jq -e --slurpfile r "$db/b4r.json" '.value == $r[0].value and
        .solver_stats.db_leaves > 0 and .solver_stats.search_nodes > 0' >/dev/null &&
        ok "baghchal search from the empty board down to the sliding tiers: retro's $(jq -r .value "$db/b4r.json")" ||
        bad "baghchal search down to the sliding tiers: $j, retro: $(cat "$db/b4r.json")"
    # ... and down to a halfway database (scripts/baghchal/placement-halfway.sh,
    # scripts/placement-halfway.sh): the placement tiers with at most 2
    # goats in hand linked (the listing's count of them), none above, so
    # the search has positions to search and finds retro's value; with
    # tier 0's record gone, refused (exit 2); -H not a number refused.
    NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-halfway.sh" -n 4 -v goats=4,captures=2,sym \
        -d "$db/b4" -o "$db/b4-out" -m 1G -H 2 >"$db/b4h.out" 2>&1 || true
    n=$(awk '$2 ~ /^hand[12]-/' "$db/b.list4" | wc -l)
    sed -n '/^{/,$p' "$db/b4-out/placement-halfway-h2.txt" 2>/dev/null | jq -e --slurpfile r "$db/b4r.json" \
        '.value == $r[0].value and .solver_stats.search_nodes > 0 and .solver_stats.db_leaves > 0' \
        >/dev/null &&
        grep -q "^the initial position by search down to $n placement tiers (at most 2 in hand) and the later ones: $(jq -r .value "$db/b4r.json"); the series: $(jq -r .value "$db/b4r.json");" "$db/b4h.out" &&
        [ "$(find "$db/b4-halfway-2" -name 'tier-*.gmdb' | wc -l)" = $((n + $(ls "$db"/b4-out/slide-*.json | wc -l))) ] &&
        ok "baghchal search down to the tiers with at most 2 goats in hand ($n): retro's value" ||
        bad "baghchal halfway search: $(cat "$db/b4h.out")"
    mkdir -p "$db/b4-out0"
    grep -v '"tier":0,' "$brecs" >"$db/b4-out0/placement.jsonl"
    rc=0
    NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-halfway.sh" -n 4 -v goats=4,captures=2,sym \
        -d "$db/b4" -o "$db/b4-out0" -H 2 >/dev/null 2>"$db/b4h.err" || rc=$?
    [ "$rc" = 2 ] && grep -q "has not solved tier 0 yet" "$db/b4h.err" &&
        ok "baghchal halfway search without tier 0's record: refused" ||
        bad "baghchal halfway search without tier 0's record: exit $rc, $(cat "$db/b4h.err")"
    rc=0
    NOLOCK=1 BIN=$solve TIER_PLAN=$bplan "$bs/placement-halfway.sh" -n 4 -v goats=4,captures=2,sym \
        -d "$db/b4" -o "$db/b4-out" -H two >/dev/null 2>"$db/b4h.err" || rc=$?
    [ "$rc" = 2 ] && grep -q "takes a number of pieces in hand, not 'two'" "$db/b4h.err" &&
        ok "baghchal halfway search: -H two refused" ||
        bad "baghchal halfway search: -H two: exit $rc, $(cat "$db/b4h.err")"
else
    echo "skip baghchal placement series (no tier-plan)"
fi
# Bagh Chal's series' scripts have no default database either: without -d
# or BAGHCHAL_DB they refuse (exit 2, naming both) and make nothing.
for s in sliding-solve placement-solve placement-verify placement-crosscheck placement-halfway; do
    rc=0
    env -u BAGHCHAL_DB NOLOCK=1 BIN=false "$scripts/baghchal/$s.sh" -n 4 -o "$db/nodb-b-$s" \
        >/dev/null 2>"$db/nodb.err" || rc=$?
    [ "$rc" = 2 ] && grep -q "needs the database directory: -d DB, or BAGHCHAL_DB=DB" "$db/nodb.err" &&
        [ ! -e "$db/nodb-b-$s" ] && ok "baghchal/$s.sh without -d or BAGHCHAL_DB: refused" ||
        bad "baghchal/$s.sh without -d or BAGHCHAL_DB: exit $rc, $(cat "$db/nodb.err")"
done
# The bench lock: scripts/locked-run.sh and scripts/big-solve.sh take the
# file BENCH_LOCK names (here one that cannot be opened: both refuse and
# keep nothing), NOLOCK=1 skips it. big-solve.sh runs from a copy, so that
# its results/big is the copy's.
rc=0
BENCH_LOCK="$db/no-dir/lock" "$scripts/locked-run.sh" "$db/lk" true >/dev/null 2>&1 || rc=$?
[ "$rc" != 0 ] && grep -q "$db/no-dir/lock" "$db/lk.err" && ok "locked-run.sh takes BENCH_LOCK" ||
    bad "locked-run.sh with an unusable BENCH_LOCK: exit $rc"
NOLOCK=1 BENCH_LOCK="$db/no-dir/lock" "$scripts/locked-run.sh" "$db/lk" true >/dev/null 2>&1 &&
    ok "locked-run.sh: NOLOCK=1 skips the lock" || bad "locked-run.sh: NOLOCK=1"
mkdir -p "$db/bs/scripts" "$db/bs/results/big"
cp "$scripts/big-solve.sh" "$db/bs/scripts/"
rc=0
BENCH_LOCK="$db/no-dir/lock" "$db/bs/scripts/big-solve.sh" t echo '{"value":"tie"}' >/dev/null 2>&1 ||
    rc=$?
[ "$rc" != 0 ] && [ -z "$(ls -A "$db/bs/results/big")" ] && ok "big-solve.sh takes BENCH_LOCK" ||
    bad "big-solve.sh with an unusable BENCH_LOCK: exit $rc, $(ls -A "$db/bs/results/big")"
NOLOCK=1 BENCH_LOCK="$db/no-dir/lock" "$db/bs/scripts/big-solve.sh" t echo '{"value":"tie"}' \
    >/dev/null 2>&1 && [ -s "$db/bs/results/big/t.json" ] && ok "big-solve.sh: NOLOCK=1 skips the lock" ||
    bad "big-solve.sh: NOLOCK=1"
# The note on the kernel's autogroups (nice does not yield across sessions
# with them on), by the file big-solve.sh reads: printed for 1, not for 0.
echo 1 >"$db/ag"
NOLOCK=1 GAMESMAN_AUTOGROUP_FILE="$db/ag" "$db/bs/scripts/big-solve.sh" t echo '{"value":"tie"}' \
    >/dev/null 2>"$db/ag1.err"
echo 0 >"$db/ag"
NOLOCK=1 GAMESMAN_AUTOGROUP_FILE="$db/ag" "$db/bs/scripts/big-solve.sh" t echo '{"value":"tie"}' \
    >/dev/null 2>"$db/ag0.err"
grep -q "sched_autogroup_enabled is 1" "$db/ag1.err" && ! grep -q autogroup "$db/ag0.err" &&
    ok "big-solve.sh: the autogroup note" || bad "big-solve.sh: the autogroup note: $(cat "$db/ag1.err" "$db/ag0.err")"
# A solve in segments: a run that stops (exit 3) keeps only its segment;
# the rerun that ends well dates the record from the first start and lists
# both segments in s.txt; a solve in one run (t above) keeps three lines.
rc=0
NOLOCK=1 "$db/bs/scripts/big-solve.sh" s sh -c 'exit 3' >/dev/null 2>&1 || rc=$?
segs="$db/bs/results/big/.s.segments"
[ "$rc" = 3 ] && [ ! -e "$db/bs/results/big/s.json" ] && grep -q '^segment=end .* exit 3 ' "$segs" &&
    ok "big-solve.sh: a stopped run keeps its segment" || bad "big-solve.sh: a stopped run: exit $rc"
first=$(sed -n '1s/^segment=start \([^ ]*\) .*/\1/p' "$segs")
sed -i "1s/^segment=start [^ ]*/segment=start 2000-01-01T00:00:00Z/" "$segs"
NOLOCK=1 "$db/bs/scripts/big-solve.sh" s echo '{"value":"tie"}' >/dev/null 2>&1 &&
    [ "$(grep -c '^segment=start' "$db/bs/results/big/s.txt")" = 2 ] &&
    grep -qx 'date=2000-01-01T00:00:00Z' "$db/bs/results/big/s.txt" && [ -n "$first" ] && [ ! -e "$segs" ] &&
    [ "$(grep -c . "$db/bs/results/big/t.txt")" = 3 ] && ok "big-solve.sh: a solve in segments is recorded whole" ||
    bad "big-solve.sh: a solve in segments: $(cat "$db/bs/results/big/s.txt" 2>&1)"
# A tier solved over a held child whose block is corrupt is refused, not
# solved from wrong records: the empty board again, after one byte of its
# only child's (tier 2, hands 2-3, a white stone on the board) one block,
# which starts at byte 512 (no dictionary below 256 blocks), is changed.
cp -r "$db/m3p" "$db/m3c"
rm "$db/m3c/tier-0000.gmdb"
printf '\001' | dd of="$db/m3c/tier-0002.gmdb" bs=1 seek=515 conv=notrunc 2>/dev/null
refuse_code 5 "placement tier over a corrupt held child" \
    "tier-0002.gmdb is corrupt (checksum mismatch in block 0)" morris:n=3,sym,swap \
    --solver tier:sector=0 --db "$db/m3c"
[ ! -e "$db/m3c/tier-0000.gmdb" ] && ok "placement tier over a corrupt child: no file written" ||
    bad "placement tier over a corrupt child wrote tier 0"
refuse_code 2 "verify without db" "give --db" tictactoe --verify
refuse_code 5 "db missing" "cannot open the database directory" tictactoe --db "$db/none" \
    --query x--------
mkdir "$db/empty"
refuse_code 5 "db half-written" "holds no complete database" tictactoe --db "$db/empty" \
    --analyze
refuse_code 5 "db foreign variant" "holds the database of tictactoe, not tictactoe:misere" \
    tictactoe:misere --db "$db/r" --query x--------
cp -r "$db/t" "$db/c"
sed -i 's/^positions .*/positions 1/' "$db/c/manifest"
refuse_code 5 "db corrupt manifest" "manifest checksum mismatch" $c4 --db "$db/c" --analyze
cp -r "$db/t" "$db/u"
truncate -s -5 "$db/u/tier-0000.gmdb"
refuse_code 5 "db truncated" "tier-0000.gmdb is truncated" $c4 --db "$db/u" --query ----/----/----/----
# Issue 33 D1: a writer removes only its own temporary names
# (NAME.tmp.PID.K), and only once it has accepted the directory.
for s in tier dfs symbolic; do
    mkdir "$db/d1$s"
    echo keep >"$db/d1$s/report.tmp"
    echo keep >"$db/d1$s/notes.tmp.bak"
    "$solve" tictactoe --solver $s --db "$db/d1$s" >/dev/null 2>&1 &&
        [ -e "$db/d1$s/report.tmp" ] && [ -e "$db/d1$s/notes.tmp.bak" ] &&
        ok "$s --db keeps the user's *.tmp files" || bad "$s --db removed the user's *.tmp files"
    echo keep >"$db/d1$s/draft.tmp"
    echo stale >"$db/d1$s/manifest.tmp.4242.0"
    refuse_code 5 "$s --db of another variant refused" "another game variant" \
        tictactoe:misere --solver $s --db "$db/d1$s"
    [ -e "$db/d1$s/draft.tmp" ] && [ -e "$db/d1$s/manifest.tmp.4242.0" ] &&
        ok "$s: a refused solve removes nothing" || bad "$s: a refused solve removed files"
    "$solve" tictactoe --solver $s --db "$db/d1$s" >/dev/null 2>&1 &&
        [ -e "$db/d1$s/draft.tmp" ] && [ ! -e "$db/d1$s/manifest.tmp.4242.0" ] &&
        ok "$s: a resume removes a stale temporary file only" ||
        bad "$s: a resume: $(ls "$db/d1$s")"
done
rm -rf "$db"
# Othello and WinBy.
refuse "othello odd side" "sides must be even" othello:n=5
refuse "othello odd width" "sides must be even" othello:w=3,h=4
refuse "othello n with w" "not both" othello:n=4,w=4
refuse "othello side range" "2..20" othello:n=22
refuse "othello too large to hash" "63-bit hash" othello:n=8
refuse "othello database too large" "needs an estimated" othello:n=6
refuse "othello query length" "row by row" othello --query -----ox--xo-----
refuse "othello query turn" "player to move" othello --query -----ox--xo-----:z
refuse "othello query empty centre" "centre squares" othello --query -----o---xo-----:x
refuse "othello query disconnected" "connected" othello:w=2,h=8 --query x-----oxxo------:o
refuse "othello query unreachable" "not reachable" othello --query -----ox--xo-----:o
refuse "pick without query" "give --query" othello --pick winby
refuse "pick unknown rule" "remoteness, winby or false-hope" othello --query -----ox--xo-----:x \
    --pick most
refuse "pick winby without scores" "needs WinBy scores" tictactoe --query x-------- --pick winby

# Every solver gives the same value and WinBy; the published result is a
# second-player win, so the first player's margin is negative.
for s in gps-cached gps dfs minimax; do
    "$solve" othello --solver "$s" --json | jq -c '[.value, .remoteness, .winby]' \
        >"/tmp/cli_oth_$s.$$"
done
if jq -e '.[0] == "lose" and .[2] < 0' "/tmp/cli_oth_dfs.$$" >/dev/null &&
    cmp -s "/tmp/cli_oth_dfs.$$" "/tmp/cli_oth_gps.$$" &&
    cmp -s "/tmp/cli_oth_dfs.$$" "/tmp/cli_oth_gps-cached.$$" &&
    cmp -s "/tmp/cli_oth_dfs.$$" "/tmp/cli_oth_minimax.$$"; then
    ok "othello: lose with the same winby from every solver"
else
    bad "othello: $(cat /tmp/cli_oth_*.$$)"
fi
rm -f /tmp/cli_oth_*.$$
j=$("$solve" othello --json)
echo "$j" | jq -e '.value == "lose" and (.winby | type) == "number" and
    .solver == "gps-cached"' >/dev/null && ok "othello default" || bad "othello default: $j"
j=$("$solve" othello:sym --json)
echo "$j" | jq -e '.value == "lose" and .variant == "w=4,h=4,sym"' >/dev/null &&
    ok "othello sym" || bad "othello sym: $j"

# The three --pick rules, checked against the move list they choose from:
# remoteness takes the first (best by value and remoteness); winby the best
# margin for the mover, whose WinBy equals the position's (WinBy document:
# the child with the parent's WinBy is the best move); false-hope the
# winning move with the smallest margin. In these positions (x and o to
# move) all three differ, so no rule can pass for another.
for p in -----ox--oxx-o--:x ----xxx--xo---xo:o; do
    picks=""
    for rule in remoteness winby false-hope; do
        j=$("$solve" othello --json --query "$p" --pick "$rule")
        if echo "$j" | jq -e --arg rule "$rule" --arg p "$p" '
            .query as $q
            | (if ($p | endswith(":x")) then 1 else -1 end) as $sign
            | [$q.moves[] | . + {margin: ($sign * .winby)}] as $ms
            | ($ms | map(select(.move == $q.pick.move)) | .[0]) as $m
            | $q.pick.rule == $rule and
              (if $rule == "remoteness" then $q.pick.move == $q.moves[0].move
               elif $rule == "winby" then
                 $m.margin == ($ms | map(.margin) | max) and $m.winby == $q.winby
               else $m.value == "win" and
                 $m.margin == ($ms | map(select(.value == "win") | .margin) | min)
               end)' >/dev/null; then
            ok "pick $rule at $p"
        else
            bad "pick $rule at $p: $j"
        fi
        picks="$picks $(echo "$j" | jq -r .query.pick.move)"
    done
    [ "$(echo $picks | tr ' ' '\n' | sort -u | wc -l)" -eq 3 ] && ok "three picks differ at $p" ||
        bad "picks at $p:$picks"
done
"$solve" othello --query -----ox--oxx-o--:x --pick false-hope | grep -q "^pick .*false-hope" &&
    ok "pick in text" || bad "pick in text"
j=$("$solve" othello:w=4,h=2 --json --query xxx-ooo-:x)
echo "$j" | jq -e '.query.value == "tie" and .query.winby == 0 and (.query.moves | length) == 0 and
    .query.pick.move == null' >/dev/null && ok "query of a finished game" ||
    bad "finished game query: $j"
# Loopy games (tests/test_loopy.c cites the sources): depth-first solvers
# refuse them; the retrograde solvers (and sweep, when registered) agree.
refuse "dfs refuses a loopy game" "is loopy" dodgem --solver dfs
refuse "tier refuses a loopy game without tiers" "needs tiers" ponghauki --solver tier
refuse "morris stones" "3, 6 or 9" morris:n=5
refuse "morris query hands" "in hand as white" morris:n=3 --query ---------:1:3:w
refuse "dodgem size too small" "n" dodgem:n=2
refuse "dodgem size too large" "n" dodgem:n=9
refuse "dodgem 5x5 does not fit" "memory budget" dodgem:n=5 --max-memory 256M
refuse "dodgem query length" "9 squares" dodgem --query b--b--rr:b
refuse "dodgem query too many cars" "each player has 2" dodgem --query bbbb---rr:b
refuse "dodgem query mover" "player to move" dodgem --query b--b---rr:x
refuse "ponghauki query counts" "two x, two o" ponghauki --query xxxo-:x
refuse "mutorere query character" "is not x, o" mutorere --query xxxxoooz-:x
refuse "achi query turn in placement" "is to move" achi --query x--------:x
refuse "achi query after a line" "cannot arise" achi --query xxxoo-o--:x
refuse "achi pieces option" "pieces" achi:pieces=5
refuse "topitop castles option" "castles=2" topitop:buckets=1,castles=2
tt=topitop:buckets=1,small=1,large=1
refuse "topitop query shape" "the 9 cells" $tt --query ---------:B
refuse "topitop query forbidden slide" "forbidden slide 1-9" $tt --query S--------:R:1-9
refuse "topitop query pieces" "more pieces" $tt --query BB-------:R:-
refuse "topitop query after the win" "has built its" $tt --query P--------:B:-
j=$("$solve" $tt --json --query X---L----:B:-)
echo "$j" | jq -e '.query.value == "win" and .query.remoteness == 1' >/dev/null &&
    ok "topitop query: the winning stack" || bad "topitop query: $j"
refuse "retro over the memory budget" "retro solve, with its" dodgem:n=4 --solver retro \
    --max-memory 20M
loopy_solvers="retro retro-unmove tier"
"$solve" --list | grep -q "^  sweep " && loopy_solvers="$loopy_solvers sweep"
for s in $loopy_solvers; do
    j=$("$solve" dodgem --solver "$s" --json --analyze)
    if echo "$j" | jq -e '.value == "win" and .ties == 0 and .draws == 0 and
        .wins + .losses == .positions' >/dev/null; then
        ok "$s dodgem: first player wins"
    else
        bad "$s dodgem: $j"
    fi
    echo "$j" | jq -c '[.positions, .wins, .losses, .ties, .draws, .by_remoteness]' \
        >"/tmp/cli_loopy_$s.$$"
done
same=1
for s in $loopy_solvers; do
    cmp -s "/tmp/cli_loopy_retro.$$" "/tmp/cli_loopy_$s.$$" || same=0
done
[ "$same" = 1 ] && ok "same dodgem counts from $loopy_solvers" || bad "dodgem counts differ"
rm -f /tmp/cli_loopy_*.$$
j=$("$solve" ponghauki --json)
echo "$j" | jq -e '.value == "draw" and .draws > 0 and .ties == 0 and
    (.solver | startswith("retro") or . == "sweep")' >/dev/null && ok "ponghauki draw" ||
    bad "ponghauki: $j"
j=$("$solve" mutorere --json)
echo "$j" | jq -e '.value == "draw" and .positions == 1180 and .draws == 844' >/dev/null &&
    ok "mutorere draw" || bad "mutorere: $j"
j=$("$solve" ponghauki --json --query xx-oo:x)
echo "$j" | jq -e '.query.value == "draw" and (.query.moves | length) == 2 and
    ([.query.moves[] | select(.value == "draw" and .remoteness == 0)] | length) == 2' \
    >/dev/null && ok "loopy query" || bad "loopy query: $j"
# Connect Four: bad variants and positions; the 4x4 figures of J. Tromp's
# table (161,029 positions reachable, a draw: "tie") from every DFS solver,
# with the same database totals.
refuse "connect4 width" "'w'" connect4:w=17
refuse "connect4 zero height" "'h'" connect4:h=0
refuse "connect4 k too large" "larger than both" connect4:w=3,h=3,k=4
refuse "connect4 hash too large" "2^63" connect4:w=8,h=8
refuse "connect4 memory" "memory" connect4:w=7,h=6
refuse "connect4 query rows" "4 rows of 4 cells" connect4:w=4,h=4 --query ----/----/----
refuse "connect4 query char" "is not x, o or -" connect4:w=4,h=4 --query ----/----/----/-z--
refuse "connect4 query floating" "floats" connect4:w=4,h=4 --query ----/----/x---/----
refuse "connect4 query counts" "x must have" connect4:w=4,h=4 --query ----/----/----/xx--
refuse "connect4 query two winners" "both players" connect4:w=4,h=4 --query ox--/ox--/ox--/ox--
refuse "connect4 query unreachable" "cannot arise" connect4:w=4,h=4 --query ----/----/x---/o---
for s in dfs gps gps-cached; do
    j=$("$solve" connect4:w=4,h=4 --solver "$s" --json)
    if echo "$j" | jq -e '.value == "tie" and .remoteness == 16 and .positions == 161029 and
        .hash_space == 201755' >/dev/null; then
        ok "$s connect4 4x4"
    else
        bad "$s connect4 4x4: $j"
    fi
    echo "$j" | jq -c '[.wins, .losses, .ties]' >"/tmp/cli_c4_$s.$$"
done
if cmp -s "/tmp/cli_c4_dfs.$$" "/tmp/cli_c4_gps.$$" &&
    cmp -s "/tmp/cli_c4_dfs.$$" "/tmp/cli_c4_gps-cached.$$"; then
    ok "connect4 same counts from every solver"
else
    bad "connect4 counts differ between solvers"
fi
rm -f /tmp/cli_c4_*.$$
j=$("$solve" connect4:w=4,h=4 --json --query ----/x---/xo--/xoo-)
echo "$j" | jq -e '.query.value == "win" and .query.remoteness == 1 and
    .query.moves[0].move == "1" and (.query.moves | length) == 4' >/dev/null &&
    ok "connect4 query" || bad "connect4 query: $j"

# Quarto, subtraction games, Nim, Hexapawn: refusals with clear messages.
refuse "full quarto refused with an estimate" "full Quarto, needs an estimated" quarto:n=4,attrs=4
"$solve" quarto:n=4,attrs=4 >/dev/null 2>&1
[ $? -eq 4 ] && ok "full quarto exit code 4 (memory)" || bad "full quarto exit code"
refuse "quarto over a small budget" "needs an estimated" quarto:n=4,attrs=3 --max-memory 1G
# Full Quarto is created (--sample works) and refused by every solver but
# search, --check-args too; search values a position won at once: the hand
# piece 3 (0011) on d1 completes row 1 (0 1 2 3 all lack attribute 2).
refuse_code 4 "full quarto --check-args exit 4" "full Quarto, needs an estimated" \
    quarto:n=4,attrs=4 --solver dfs --check-args
[ "$("$solve" quarto:n=4,attrs=4,sym --sample 3 | wc -l)" = 3 ] && ok "full quarto --sample" ||
    bad "full quarto --sample"
v=$("$solve" quarto:n=4,attrs=4,sym --solver search:memo=16 --query 012-/----/----/----:3 --json |
    jq -r .value)
[ "$v" = win ] && ok "full quarto by search" || bad "full quarto by search: $v"
"$solve" quarto:n=4,attrs=4,sym --solver search --check-args && ok "full quarto search --check-args" ||
    bad "full quarto search --check-args"
refuse "quarto side" "option 'n' needs an integer in 2..4" quarto:n=5
refuse "quarto query duplicate" "appears twice" quarto --query 0--/---/---:0
refuse "quarto query hand" "no piece in hand" quarto:n=2,attrs=1 --query 0-/--:-
refuse "subtract huge n" "stores remoteness up to 16383" subtract:n=100000
refuse "subtract duplicate move" "twice" subtract:moves=1-2-1
refuse "subtract zero move" "must be an integer in 1.." subtract:moves=0-1
refuse "subtract empty moves" "not a list" subtract:moves=
refuse "subtract query range" "0..10" subtract --query 11
refuse "nim too many counters" "at most 256" nim:heaps=200-100
refuse "nim query heap" "holds at most 3" nim --query 4-4-5
refuse "nim query shape" "heap sizes separated" nim --query 3-4
refuse "hexapawn too large" "too large to hash" hexapawn:w=8,h=8
refuse "hexapawn query length" "wrong length" hexapawn --query bbb/---/www
refuse "hexapawn query ended" "cannot arise" hexapawn --query w--/---/---:w

# Published values (tests/test_known_*.c cite the sources).
j=$("$solve" hexapawn --json)
echo "$j" | jq -e '.value == "lose" and .remoteness == 6' >/dev/null && ok "hexapawn lose" ||
    bad "hexapawn: $j"
j=$("$solve" subtract:n=10 --json)
echo "$j" | jq -e '.value == "win" and .positions == 11 and .losses == 4' >/dev/null &&
    ok "1,2,...,10 win" || bad "subtract: $j"
j=$("$solve" nim --json --query 1-2-3)
echo "$j" | jq -e '.value == "win" and .query.value == "lose"' >/dev/null && ok "nim" ||
    bad "nim: $j"
# A deep recursion (16,383 plies) runs on the harness's sized stack.
j=$("$solve" subtract:n=16383 --solver dfs --json)
echo "$j" | jq -e '.value == "lose" and .positions == 16384' >/dev/null && ok "subtract deep" ||
    bad "subtract deep: $j"
# Every DFS solver agrees on a small Quarto (first player loses in 4, by hand).
for s in dfs gps gps-cached; do
    "$solve" quarto:n=2,attrs=2 --solver "$s" --json |
        jq -c '[.value, .remoteness, .positions, .wins, .losses, .ties]' >"/tmp/cli_q_$s.$$"
done
if grep -q '^\["lose",4,' "/tmp/cli_q_dfs.$$" && cmp -s "/tmp/cli_q_dfs.$$" "/tmp/cli_q_gps.$$" &&
    cmp -s "/tmp/cli_q_dfs.$$" "/tmp/cli_q_gps-cached.$$"; then
    ok "quarto solvers agree"
else
    bad "quarto solvers: $(cat /tmp/cli_q_*.$$)"
fi
rm -f /tmp/cli_q_*.$$

# Hardening (issue 10): each case of the adversarial review, as the issue
# gives it. refuse_code NAME CODE PART ARGS...: exit CODE, nothing on stdout,
# exactly one line on stderr containing PART.
refuse_code() {
    name=$1 code=$2 part=$3
    shift 3
    out=$("$solve" "$@" 2>/tmp/cli_err.$$)
    rc=$?
    if [ "$rc" -eq "$code" ] && [ -z "$out" ] && [ "$(wc -l </tmp/cli_err.$$)" -eq 1 ] &&
        grep -qF -- "$part" /tmp/cli_err.$$; then
        ok "$name"
    else
        bad "$name (exit $rc, stderr: $(cat /tmp/cli_err.$$))"
    fi
}
# tier:sector refuses, before solving, a nine men's morris sector it cannot
# hold (docs/loopy.md). Without `sym`, so that a tier's slots are the
# hash's (with it, the index by classes: about 1/16 of them, checked
# against Burnside's counts in tests/test_loopy.c), and 6-6 is refused
# with 14 GiB (with `sym` it fits). Tier numbers: 715 tiers, sector W-B is tier
# 615 + 10 W + B (scripts/morris/sector-solve.sh). 6-6 has
# 2 C(24,6) C(18,6) = 4,997,280,288 slots, over 2^32: its loopy pass has
# 64-bit indices and is counted, not refused (exit 7 until 2026-11-23); its
# ranks take ceil(4,997,280,288 / 64) x 8 = 624,660,040 bytes plus 16,386
# x 8 of event offsets = 624,791,128 bytes = 595.8 MiB; its window holds
# 6-6, 5-6 and 6-5 (2 C(24,5) C(19,6) = 2,306,437,056 slots each) at 2
# bytes a slot: 2 x 9,610,154,400 bytes = 17.9 GiB, over 14 GiB. 4-4's
# window holds 4-4, 3-4 and 4-3 at 2 bytes a slot: 2 (2 C(24,4) C(20,4) +
# 2 x 2 C(24,3) C(21,4)) = 2 x 151,420,500 bytes = 288.8 MiB (binomials by
# hand).
refuse_code "morris sector over 2^32 slots: ranks counted" 4 "loopy pass 595.8 MiB before" \
    morris:n=9 --solver tier:sector=681 --max-memory 14G
refuse_code "morris sector over 2^32 slots: over the budget" 4 "(records 17.9 GiB," \
    morris:n=9 --solver tier:sector=681 --max-memory 14G
refuse_code "morris sector over the budget" 4 "records 288.8 MiB" morris:n=9 \
    --solver tier:sector=659 --max-memory 100M
# Item 4: with MemAvailable missing or 0 (a bind-mounted /proc/meminfo, as in
# the review), the budget falls back to MemTotal, or the solve is refused
# asking for --max-memory; never unlimited. Needs a private mount namespace
# (root); elsewhere tests/test_core.c covers the same rule with injected files.
printf 'MemTotal: 1000000 kB\nMemAvailable: 0 kB\n' >/tmp/cli_mi1.$$
printf 'MemFree: 100 kB\n' >/tmp/cli_mi2.$$
if unshare -m sh -c "mount --bind /tmp/cli_mi1.$$ /proc/meminfo" 2>/dev/null; then
    unshare -m sh -c "mount --bind /tmp/cli_mi1.$$ /proc/meminfo && \"$solve\" connect4:w=7,h=6" \
        >/dev/null 2>/tmp/cli_err.$$
    rc=$?
    [ "$rc" -eq 4 ] && grep -q "(90% of MemTotal" /tmp/cli_err.$$ && ok "budget from MemTotal" ||
        bad "budget from MemTotal: exit $rc, $(cat /tmp/cli_err.$$)"
    unshare -m sh -c "mount --bind /tmp/cli_mi2.$$ /proc/meminfo && \"$solve\" connect4:w=7,h=6" \
        >/dev/null 2>/tmp/cli_err.$$
    rc=$?
    [ "$rc" -eq 4 ] && grep -q "give --max-memory SIZE" /tmp/cli_err.$$ && ok "budget unknown" ||
        bad "budget unknown: exit $rc, $(cat /tmp/cli_err.$$)"
else
    echo "skip budget fallbacks (no private mount namespace here)"
fi
rm -f /tmp/cli_mi1.$$ /tmp/cli_mi2.$$
# Issue 10 item 7: the free-space check counts only what is still to be
# written. Connect Four 4x4's tiers take 201,755 raw record bytes (its hash
# space) plus 25 KiB of bitmaps; with the last tier (C(16,8) = 12,870
# slots) and the bitmaps missing, about 39 KiB remain. On a 1 MiB tmpfs
# filled to about 100 KiB free, the resume must go through; counting every
# tier (the old check, about 230 KiB) refused it.
wd=$(mktemp -d)
if "$solve" connect4:w=4,h=4 --solver tier --db "$wd/full" >/dev/null 2>&1 &&
    unshare -m sh -c "mount -t tmpfs -o size=1m tmpfs '$wd'" 2>/dev/null; then
    unshare -m sh -c "
        mkdir '$wd/t' && mount -t tmpfs -o size=1m tmpfs '$wd/t' && mkdir '$wd/t/db' &&
        cp '$wd'/full/tier-00*.gmdb '$wd/t/db/' && rm '$wd/t/db/tier-0016.gmdb' &&
        head -c \$(( \$(df -B1 --output=avail '$wd/t' | tail -1) - 102400 )) /dev/zero > '$wd/t/fill' &&
        \"$solve\" connect4:w=4,h=4 --solver tier --db '$wd/t/db' --json" >"$wd/out" 2>"$wd/err"
    rc=$?
    [ "$rc" -eq 0 ] && jq -e '.value == "tie" and .positions == 161029' "$wd/out" >/dev/null &&
        ok "free space: only the tiers still to write count" ||
        bad "free space resume: exit $rc, $(cat "$wd/err")"
else
    echo "skip free-space resume (no private mount namespace or tmpfs here)"
fi
rm -rf "$wd"
# Item 5: a size under one byte rounded to 0, which meant no limit.
refuse_code "max-memory 0.5" 2 "less than one byte" tictactoe --max-memory 0.5
refuse_code "max-memory 0.0005K" 2 "less than one byte" tictactoe --max-memory 0.0005K
# Item 6: the stack counts with the database, so tic-tac-toe (3^9 = 19,683
# one-byte records and a 9-ply recursion) solves in 1 MiB with every
# depth-first solver; a budget too small for it is a memory refusal (exit 4)
# naming the budget and where it came from.
for s in dfs gps gps-cached dfs-depth; do
    for m in 31M 1M; do
        j=$("$solve" tictactoe --solver "$s" --max-memory "$m" --json 2>/tmp/cli_err.$$)
        echo "$j" | jq -e '.value == "tie" and .remoteness == 9' >/dev/null &&
            ok "$s tictactoe in $m" || bad "$s tictactoe in $m: $(cat /tmp/cli_err.$$)"
    done
    refuse_code "$s stack over budget" 4 "memory budget of 20.0 KiB (set by --max-memory)" \
        tictactoe --solver "$s" --max-memory 20K
done
# Item 10: a result that cannot be written is an error (exit 5), in every mode.
for m in --json --analyze --list --help ""; do
    if [ "$m" = --list ] || [ "$m" = --help ]; then set -- "$m"; else set -- tictactoe $m; fi
    "$solve" "$@" >/dev/full 2>/tmp/cli_err.$$
    rc=$?
    [ "$rc" -eq 5 ] && grep -q "^solve: cannot write the result to standard output" /tmp/cli_err.$$ &&
        ok "write error ${m:-text}" || bad "write error ${m:-text}: exit $rc, $(cat /tmp/cli_err.$$)"
done
"$solve" tictactoe --json >&- 2>/tmp/cli_err.$$
rc=$?
[ "$rc" -eq 5 ] && grep -q "standard output is closed" /tmp/cli_err.$$ && ok "closed stdout" ||
    bad "closed stdout: exit $rc, $(cat /tmp/cli_err.$$)"
# Item 17: --query with a solver that keeps only some tiers is refused
# before the solve (one line, no progress), naming window or the budget.
refuse_code "tier:window query before solving" 2 "'tier:window' keeps only the tiers in use" \
    connect4:w=4,h=4 --solver tier:window --progress --query ----/x---/xo--/xoo-
refuse_code "tier query over budget before solving" 4 "--query needs the whole database" \
    connect4:w=4,h=4 --solver tier --progress --max-memory 100K --query ----/x---/xo--/xoo-
# Item 18: control characters from the input are escaped (\xNN) in messages.
refuse_code "escape sequence escaped" 2 'x-o\x1b[2J-----' tictactoe --query "$(printf 'x-o\033[2J-----')"
refuse_code "newline escaped" 2 'x-o\x0a-----' tictactoe --query "$(printf 'x-o\n-----')"
refuse_code "escaped in game names" 2 "unknown game 'a\x07b'" "$(printf 'a\007b')"
# Item 19: Othello's example is the variant's own initial position (the
# centre four squares of a 6x4 board, rows of 6: by hand).
refuse_code "othello example 6x4" 2 "e.g. --------ox----xo--------:x" othello:w=6,h=4 --query xo:x
refuse_code "othello example 4x4" 2 "e.g. -----ox--xo-----:x" othello --query xo:x
# Consistency: a repeated value option is refused like a repeated game
# option; --list takes no game; --work-dir without a solver that uses it
# gets a note.
refuse_code "solver twice" 2 "--solver given twice ('dfs' and 'gps')" tictactoe --solver dfs \
    --solver gps
refuse_code "query twice" 2 "--query given twice" tictactoe --query x-------- --query ---------
refuse_code "max-memory twice" 2 "--max-memory given twice" tictactoe --max-memory 1G \
    --max-memory 2G
refuse_code "list extra" 2 "--list takes no game, not 'extra'" --list extra
wd=$(mktemp -d)
# --work-dir is --db's old name: every solver that keeps a database saves it.
j=$("$solve" tictactoe --solver gps --work-dir "$wd/w" --json 2>/tmp/cli_err.$$)
echo "$j" | jq -e '.value == "tie"' >/dev/null && [ -f "$wd/w/manifest" ] &&
    ok "work-dir saves gps's database" || bad "work-dir gps: $(cat /tmp/cli_err.$$)"
refuse_code "db and work-dir" 2 "given twice" tictactoe --db "$wd/a" --work-dir "$wd/b"
# A database without remoteness (symbolic:remoteness=0, win/lose/tie only)
# prints none: no "remoteness" in the JSON, no "in N" in the text; its
# values agree with the tier solver's (a second solver) for a position and
# its children.
p=----/x---/xo--/xoo- # x wins by column 1; ties elsewhere (a mixed list)
"$solve" connect4:w=4,h=4 --solver symbolic:remoteness=0 --db "$wd/s" --json >/dev/null 2>&1
j=$("$solve" connect4:w=4,h=4 --db "$wd/s" --query "$p" --json 2>/dev/null)
t=$("$solve" connect4:w=4,h=4 --solver tier --query "$p" --json 2>/dev/null)
if [ -n "$j" ] && [ -n "$t" ] &&
    echo "$j" | jq -e '(has("remoteness") | not) and (.query | has("remoteness") | not) and
        all(.query.moves[]; has("remoteness") | not)' >/dev/null &&
    [ "$(echo "$j" | jq -c '[.value, .query.value, ([.query.moves[] | [.move, .value]] | sort)]')" = \
        "$(echo "$t" | jq -c '[.value, .query.value, ([.query.moves[] | [.move, .value]] | sort)]')" ] &&
    ! "$solve" connect4:w=4,h=4 --db "$wd/s" --query "$p" 2>/dev/null | grep -q ' in [0-9]'; then
    ok "no remoteness printed from a remoteness=0 database"
else
    bad "remoteness=0 database query: $j"
fi
# --verify expands every record's position through the same counted
# expansion as a solve (solvers/expand.h): one primitive() call a verified
# position (tic-tac-toe has no tier fast path), the calls reported in the
# JSON's counters like a solve's, not zeros.
"$solve" tictactoe --solver tier --db "$wd/v" >/dev/null 2>&1
j=$("$solve" tictactoe --db "$wd/v" --verify --json 2>/dev/null)
if echo "$j" | jq -e '.solver_stats.verified_positions == 5478 and
        .counters.primitive == .solver_stats.verified_positions and
        .counters.generate_moves > 0 and .counters.do_move > 0' >/dev/null; then
    ok "verify counted like a solve"
else
    bad "verify counters: $(echo "$j" | jq -c .counters)"
fi
rm -rf "$wd" /tmp/cli_err.$$


# Issue 33: the query stream (--query -) as a hostile user feeds it.
# json_lines FILE N: FILE is valid UTF-8 and exactly N lines, each a
# non-empty JSON object on its own (a strict one-object-per-line reader).
json_lines() {
    iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || return 1
    [ "$(wc -l <"$1")" -eq "$2" ] || return 1
    while IFS= read -r l; do
        [ -n "$l" ] && printf '%s\n' "$l" | jq -e 'type == "object"' >/dev/null 2>&1 || return 1
    done <"$1"
}
qd=$(mktemp -d)
"$solve" tictactoe --solver tier --db "$qd/t" >/dev/null 2>&1 || bad "query stream: save tictactoe"
# D5: a line that cannot be answered is echoed in "position" as valid JSON in
# UTF-8: each byte that starts no well-formed UTF-8 sequence becomes U+FFFD
# (a stray 0xff, an overlong '/', a surrogate, a cut sequence), control
# bytes are escaped, well-formed UTF-8 (e, acute: c3 a9) is kept.
printf 'x\377-------\nx\300\257-------\n\355\240\200--------\nx\001\177\303\251\342\202\n' |
    "$solve" tictactoe --db "$qd/t" --query - 2>"$qd/err" | grep -av '^$' >"$qd/out"
r=$(printf '\357\277\275') # U+FFFD in UTF-8 (empty lines: D8, below)
if json_lines "$qd/out" 4 &&
    [ "$(jq -r .position "$qd/out" | od -An -c | tr -s ' \n' ' ')" = \
        "$(printf 'x%s-------\nx%s%s-------\n%s%s%s--------\nx\001\177\303\251%s%s\n' \
            "$r" "$r" "$r" "$r" "$r" "$r" "$r" "$r" | od -An -c | tr -s ' \n' ' ')" ] &&
    [ "$(jq -r .code "$qd/out" | sort -u)" = 2 ]; then
    ok "query stream: invalid UTF-8 echoed as valid JSON"
else
    bad "query stream: invalid UTF-8: $(od -c "$qd/out" | head -20)"
fi
# D6: a NUL byte in a line is refused like any malformed line (exit 2, the
# line echoed whole with \u0000), never answered for the text before it;
# the lines around it are answered (xx-oo----: x wins in 1 by cell 3).
printf 'xx-oo----\n---------\000\nxx-oo----\000garbage\n\000\nxx-oo----\n' |
    "$solve" tictactoe --db "$qd/t" --query - 2>"$qd/err" | grep -av '^$' >"$qd/out"
if [ "$(jq -c '[.position, .value, .code]' "$qd/out" | tr '\n' ' ')" = \
    '["xx-oo----","win",null] ["---------\u0000",null,2] ["xx-oo----\u0000garbage",null,2] ["\u0000",null,2] ["xx-oo----","win",null] ' ] &&
    [ "$(jq -r 'select(.code) | .error' "$qd/out" | grep -c 'holds a NUL byte')" = 3 ]; then
    ok "query stream: a line with a NUL refused"
else
    bad "query stream: NUL: $(cat "$qd/out")"
fi
printf 'xx-oo----\000garbage\n' | "$solve" tictactoe --db "$qd/t" --query - >/dev/null 2>&1
[ $? -eq 2 ] && ok "query stream: a NUL line exits 2" || bad "query stream: a NUL line exits 0"
# D8: one JSON object per line, no empty line between them (a strict
# line reader: every line non-empty and a JSON object), for answered
# lines, refused lines and a mix.
printf 'xx-oo----\n---------\nzzz\nx--------\n' |
    "$solve" tictactoe --db "$qd/t" --query - >"$qd/out" 2>/dev/null
json_lines "$qd/out" 4 && ok "query stream: one object per line" ||
    bad "query stream: lines: $(od -c "$qd/out" | head -5)"
# The database at fault in the middle of the stream (a tier file gone: a
# child of the second line is in it): the first line answered, the second
# refused (exit 5, on stderr too), the third not answered, by 1 worker as
# by 2 (which answer the lines together).
cp -r "$qd/t" "$qd/u" && rm "$qd/u/tier-0009.gmdb"
for t in 1 2; do
    printf 'x--------\nxoxoxoox-\nx--------\n' |
        "$solve" tictactoe --db "$qd/u" --query - --threads $t >"$qd/f$t" 2>"$qd/e$t"
    echo $? >"$qd/rc$t"
done
if [ "$(cat "$qd/rc1") $(cat "$qd/rc2")" = "5 5" ] && cmp -s "$qd/f1" "$qd/f2" &&
    [ "$(jq -c '[.position, .value, .code]' "$qd/f1" | tr '\n' ' ')" = \
        '["x--------","tie",null] ["xoxoxoox-",null,5] ' ] &&
    grep -q 'tier-0009.gmdb' "$qd/e2"; then
    ok "query stream: stops at the database's fault, 1 or 2 workers"
else
    bad "query stream: a fault: $(cat "$qd/rc1" "$qd/rc2" "$qd/f2" "$qd/e2")"
fi
# A client that writes a line and waits for its answer gets it (the
# workers answer what is waiting, not a full batch): two lines in turn
# through a pipe held open, each answer read before the next line is sent.
mkfifo "$qd/fin" "$qd/fout"
"$solve" tictactoe --db "$qd/t" --query - --threads 2 <"$qd/fin" >"$qd/fout" 2>/dev/null &
qpid=$!
exec 7>"$qd/fin" 8<"$qd/fout"
echo xx-oo---- >&7
a1=$(timeout 20 head -n 1 <&8)
echo x-------- >&7
a2=$(timeout 20 head -n 1 <&8)
exec 7>&- 8<&-
wait $qpid
[ "$(echo "$a1" | jq -r .value) $(echo "$a2" | jq -r .value)" = "win tie" ] &&
    ok "query stream: each line answered before the next is sent" ||
    bad "query stream: interactive: '$a1' '$a2'"
rm -rf "$qd"

# Exit codes (issue 33, "also seen"): a variant too large to hash is a bad
# option (exit 2) in every game, Othello's as Connect Four's (it was 4, the
# memory code, which full Quarto's real memory refusal keeps); an empty
# --db (or --work-dir) is a bad option, not a file error (it was 5).
refuse_code "othello too large to hash: exit 2" 2 "more than a 63-bit hash holds" othello:n=20
refuse_code "connect4 too large to hash: exit 2" 2 "more than 2^63" connect4:w=16,h=16
refuse_code "empty --db: exit 2" 2 "--db needs a directory, not an empty name" tictactoe --db ''
refuse_code "empty --work-dir: exit 2" 2 "--work-dir needs a directory" tictactoe --work-dir '' \
    --query x--------
refuse_code "full quarto still exit 4" 4 "full Quarto, needs an estimated" quarto:n=4,attrs=4

# Move order (issue 33, a gap mutation testing found): best first for the
# mover, wins quickest first, ties quickest first, draws, losses slowest
# first (core/value.h, value_move_order); the default pick is the first.
# Tic-tac-toe -x-x--o-o, x to move, by hand: o threatens 8 (7-8-9) and x
# has no line of two, so 1, 3, 5 and 6 lose in 2 (o plays 8); 8 blocks and
# threatens 5 (2-5-8), o must take 5 and then threatens 1 (1-5-9) and 3
# (3-5-7) at once: x loses in 4. Equal moves keep generate_moves' order.
j=$("$solve" tictactoe --query -x-x--o-o --json)
echo "$j" | jq -e '.query.value == "lose" and .query.remoteness == 4 and
    .query.pick.move == "8" and [.query.moves[] | [.move, .value, .remoteness]] ==
    [["8", "lose", 4], ["1", "lose", 2], ["3", "lose", 2], ["5", "lose", 2], ["6", "lose", 2]]' \
    >/dev/null && ok "move order: the slowest loss first (tictactoe -x-x--o-o picks 8)" ||
    bad "move order: tictactoe -x-x--o-o: $j"
# Othello positions with ties and losses at two remotenesses each: each
# move's value and remoteness from a second solver (dfs, every child queried
# as a position of its own: the child's value turned for the mover, its
# remoteness plus the move), sorted here by the documented rule, against
# the list the default solver prints and its pick.
for p in --oxxooxoxxx--x-:o --ooxoxxoox----x:x; do
    j=$("$solve" othello --query "$p" --json)
    want=$(echo "$j" | jq -r '.query.moves[].position' |
        "$solve" othello --solver dfs --query - | jq -sc 'map({value: ({"win": "lose",
            "lose": "win"}[.value] // .value), remoteness: (.remoteness + 1)}) |
            sort_by([{"win": 0, "tie": 1, "draw": 2, "lose": 3}[.value],
                (if .value == "lose" then -.remoteness else .remoteness end)]) |
            map([.value, .remoteness])')
    got=$(echo "$j" | jq -c '[.query.moves[] | [.value, .remoteness]]')
    if [ "$got" = "$want" ] && echo "$got" | grep -q '"tie"' && echo "$got" | grep -q '"lose"' &&
        echo "$j" | jq -e '.query.pick.move == .query.moves[0].move' >/dev/null; then
        ok "move order: othello $p ($got)"
    else
        bad "move order: othello $p: $got, want $want"
    fi
done

# D7: bin/tier-plan (beside bin/solve in the build; the ASan build has
# none) keeps bin/solve's rules: a plan it cannot write is exit 5 with a
# message; a value option given twice, or a number out of range or not
# finite (which printed "inf s" and "16.0 EiB"), is refused with one line,
# exit 2; --positions at most the game's hash space (4x4: 201,755).
plan=$(dirname "$solve")/tier-plan
if [ -x "$plan" ]; then
    # plan_refuse NAME PART ARGS...: exit 2, one line on stderr with PART.
    plan_refuse() {
        name=$1 part=$2
        shift 2
        out=$("$plan" "$@" 2>/tmp/cli_err.$$)
        rc=$?
        if [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(wc -l </tmp/cli_err.$$)" -eq 1 ] &&
            grep -qF -- "tier-plan: $part" /tmp/cli_err.$$; then
            ok "tier-plan: $name"
        else
            bad "tier-plan: $name (exit $rc, stderr: $(cat /tmp/cli_err.$$))"
        fi
    }
    "$plan" connect4:w=4,h=4 --ranks 2 >/dev/full 2>/tmp/cli_err.$$
    rc=$?
    [ "$rc" -eq 5 ] && grep -q "^tier-plan: cannot write the plan to standard output" \
        /tmp/cli_err.$$ && ok "tier-plan: write error" ||
        bad "tier-plan: write error: exit $rc, $(cat /tmp/cli_err.$$)"
    plan_refuse "ranks twice" "--ranks given twice ('4' and '8')" connect4:w=4,h=4 --ranks 4 \
        --ranks 8
    plan_refuse "latency twice" "--latency given twice" connect4:w=4,h=4 --ranks 2 \
        --latency 1e-5 --latency 1e-4
    plan_refuse "positions 1e300" "--positions takes reachable positions, a number above 0" \
        connect4:w=4,h=4 --ranks 2 --positions 1e300
    plan_refuse "positions over the hash space" "--positions '201756' is more than the 201755" \
        connect4:w=4,h=4 --ranks 2 --positions 201756
    plan_refuse "latency 1e308" "--latency takes seconds per collective" connect4:w=4,h=4 \
        --ranks 2 --latency 1e308
    plan_refuse "cost nan" "--cost takes" connect4:w=4,h=4 --ranks 2 --cost nan
    plan_refuse "bandwidth inf" "--bandwidth takes" connect4:w=4,h=4 --ranks 2 --bandwidth inf
    plan_refuse "ranks 2.5" "--ranks takes ranks, a whole number" connect4:w=4,h=4 --ranks 2.5
    out=$("$plan" connect4:w=4,h=4 --ranks 2 --positions 201755 --latency 10 --cost 1 2>&1)
    [ $? -eq 0 ] && ! echo "$out" | grep -qi 'inf\|nan\|EiB' &&
        ok "tier-plan: the largest values, finite figures" ||
        bad "tier-plan: the largest values: $out"

    # tier:blocks over N ranks (solvers/tier/plan.h), against a count by
    # hand: connect4:w=4,h=4's tier n holds one block of C(n, ceil(n/2))
    # slots per vector of column heights (4 columns of 0..4 discs summing to
    # n); parts of at most 1000 records are runs of whole blocks, or pieces
    # of 1000 of a larger block (docs/connect-four.md); the parts of a tier
    # go round-robin to the ranks. The awk below counts them and the
    # fullest rank's slots from that rule, not from the program.
    c4parts() { # RANKS: "parts rank0_parts fullest_slots slots"
        awk -v N="$1" -v P=1000 'function C(n, k, r, i) { r = 1; for (i = 1; i <= k; i++) r = r * (n - k + i) / i; return r }
        BEGIN {
            v[0] = 1 # height vectors by their sum, column by column
            for (c = 0; c < 4; c++) {
                for (s = 0; s <= 16; s++) w[s] = 0
                for (s = 0; s <= 16; s++) for (h = 0; h <= 4 && s + h <= 16; h++) w[s + h] += v[s]
                for (s = 0; s <= 16; s++) v[s] = w[s]
            }
            for (n = 0; n <= 16; n++) {
                bs = C(n, int((n + 1) / 2)); size = v[n] * bs; slots += size
                for (r = 0; r < N; r++) got[r] = 0
                k = 0
                for (lo = 0; lo < size; k++) {
                    end = size - lo <= P ? size : lo + P
                    if (end < size && (int(lo / bs) + 1) * bs - lo <= P) end = lo + P - (lo + P) % bs
                    got[k % N] += end - lo; lo = end
                }
                parts += k; rank0 += int((k + N - 1) / N)
                most = 0; for (r = 0; r < N; r++) if (got[r] > most) most = got[r]
                fullest += most
            }
            printf "%d %d %d %d\n", parts, rank0, fullest, slots
        }'
    }
    for n in 1 2 3; do
        want=$(c4parts $n)
        out=$("$plan" connect4:w=4,h=4 --ranks $n --part 1000 2>&1)
        got=$(echo "$out" | awk '/^tiers / { s = $3 }
            /^  parts / { p = $2; sub(/.*rank 0 holds /, ""); r = $1; sub(/.*over the tiers: /, ""); f = $1 }
            END { print p, r, f, s }')
        [ "$got" = "$want" ] && ok "tier-plan: 4x4's parts dealt to $n ranks by hand ($got)" ||
            bad "tier-plan: 4x4's parts on $n ranks: plan '$got', by hand '$want'"
    done
    # the database: 0.4162 bytes a reachable position, 0.0119 an unreachable
    # slot (scripts/measure/tier-bytes.sh on 5x7), whatever the spread
    want=$(awk 'BEGIN { printf "%.0f\n", 0.4162 * 161029 + 0.0119 * (201755 - 161029) }')
    got=$("$plan" connect4:w=4,h=4 --ranks 2 --positions 161029 | sed -n 's/^  database .*(\([0-9]*\) bytes:.*/\1/p')
    [ "$got" = "$want" ] && ok "tier-plan: 4x4's database bytes ($got)" ||
        bad "tier-plan: 4x4's database bytes: plan '$got', by hand '$want'"
    # one rank is the mode built: its memory is tier:estimate's tier:blocks peak
    want=$("$solve" connect4:w=4,h=4 --solver tier:estimate,blocks --threads 2 --json 2>/dev/null |
        jq .solver_stats.est_blocks_peak_bytes)
    got=$("$plan" connect4:w=4,h=4 --ranks 1 --threads 2 | sed -n 's/^  memory      per rank .* (\([0-9]*\) bytes): shares.*/\1/p')
    [ -n "$want" ] && [ "$got" = "$want" ] && ok "tier-plan: one rank's memory is tier:estimate's ($got)" ||
        bad "tier-plan: one rank's memory: plan '$got', tier:estimate '$want'"
    # --profile: the game's own counts are taken as they are; another
    # board's reachable fractions go to the tiers by relative depth (here
    # 4x4's 17 tiers onto 5x4's 21: tier t at t / 20 x 16 of 4x4's), by hand
    printf '# tier positions\n' >/tmp/cli_prof.$$
    "$plan" connect4:w=4,h=4 --list | awk '!/^#/ { printf "%d %d\n", $1, int($3 / (1 + $1 % 3)) }' >>/tmp/cli_prof.$$
    want=$(awk '!/^#/ { s += $2 } END { printf "%.4g\n", s }' /tmp/cli_prof.$$)
    got=$("$plan" connect4:w=4,h=4 --ranks 2 --profile /tmp/cli_prof.$$ | sed -n 's/.* \([^ ]*\) reachable positions.*/\1/p')
    [ "$got" = "$want" ] && ok "tier-plan: --profile of the game itself ($got positions)" ||
        bad "tier-plan: --profile of the game itself: plan '$got', the file's '$want'"
    want=$({ "$plan" connect4:w=4,h=4 --list; echo; "$plan" connect4:w=5,h=4 --list; } | awk '
        /^#/ { next } /^$/ { five = 1; next }
        !five { f[$1] = $3 > 0 ? int($3 / (1 + $1 % 3)) / $3 : 0; next }
        { x = $1 / 20 * 16; i = int(x); j = i < 16 ? i + 1 : i; s += (f[i] + (x - i) * (f[j] - f[i])) * $3 }
        END { printf "%.4g\n", s }')
    got=$("$plan" connect4:w=5,h=4 --ranks 2 --profile /tmp/cli_prof.$$ --profile-game connect4:w=4,h=4 |
        sed -n 's/.* \([^ ]*\) reachable positions.*/\1/p')
    [ "$got" = "$want" ] && ok "tier-plan: --profile of another board, by relative depth ($got)" ||
        bad "tier-plan: --profile of 4x4 on 5x4: plan '$got', by hand '$want'"
    # a game tier:blocks does not solve (loopy tiers) gets no such plan
    out=$("$plan" morris:n=3 --ranks 2 2>&1)
    [ $? -eq 0 ] && echo "$out" | grep -q "^time" && ! echo "$out" | grep -q "tier:blocks over\|^  parts" &&
        ok "tier-plan: no tier:blocks plan for loopy tiers (morris:n=3)" ||
        bad "tier-plan: morris:n=3's plan: $out"
    plan_refuse "part 0" "--part takes records a part, a whole number" connect4:w=4,h=4 --ranks 2 --part 0
    plan_refuse "part twice" "--part given twice" connect4:w=4,h=4 --ranks 2 --part 1000 --part 2000
    plan_refuse "part too small for the game" "--part 1 cuts the game's" connect4:w=7,h=6 --ranks 2 --part 1
    plan_refuse "fs-bandwidth inf" "--fs-bandwidth takes" connect4:w=4,h=4 --ranks 2 --fs-bandwidth inf
    plan_refuse "read-latency 11" "--read-latency takes seconds per file block read" connect4:w=4,h=4 --ranks 2 \
        --read-latency 11
    plan_refuse "profile missing" "--profile '/nonexistent/p': No such file" connect4:w=4,h=4 --ranks 2 \
        --profile /nonexistent/p
    plan_refuse "profile twice" "--profile given twice" connect4:w=4,h=4 --ranks 2 --profile a --profile b
    plan_refuse "profile-game alone" "--profile-game names the board of --profile FILE" connect4:w=4,h=4 \
        --ranks 2 --profile-game connect4:w=5,h=4
    plan_refuse "profile with --list" "--list and --tier print the tiers only" connect4:w=4,h=4 --list \
        --profile /tmp/cli_prof.$$
    plan_refuse "profile of another board's tiers" "--profile '/tmp/cli_prof.$$' gives 17 tiers; its board has 21" connect4:w=4,h=4 \
        --ranks 2 --profile /tmp/cli_prof.$$ --profile-game connect4:w=5,h=4
    printf '0 1\n1 5\n' >/tmp/cli_prof.$$
    plan_refuse "profile over the slots" "--profile '/tmp/cli_prof.$$' line 2: 5 positions in tier 1, which has 4 slots" connect4:w=4,h=4 \
        --ranks 2 --profile /tmp/cli_prof.$$
    printf '0 1\n2 5\n' >/tmp/cli_prof.$$
    plan_refuse "profile out of order" "--profile '/tmp/cli_prof.$$' line 2: tier 2 where tier 1 is due" connect4:w=4,h=4 --ranks 2 \
        --profile /tmp/cli_prof.$$
    printf '0 1\n1 -3\n' >/tmp/cli_prof.$$
    plan_refuse "profile negative" "--profile '/tmp/cli_prof.$$' line 2: not \"TIER POSITIONS\"" connect4:w=4,h=4 --ranks 2 \
        --profile /tmp/cli_prof.$$
    printf '0 1 2\n' >/tmp/cli_prof.$$
    plan_refuse "profile of three columns" "--profile '/tmp/cli_prof.$$' line 1: not \"TIER POSITIONS\"" connect4:w=4,h=4 --ranks 2 \
        --profile /tmp/cli_prof.$$
    rm -f /tmp/cli_prof.$$

    # The tiers by name (TierOps.name). Three men's morris has 50 tiers,
    # the movement sectors last: W-B is tier 34 + 4 W + B (games/morris.c's
    # layout, tests/test_games.c), so 3-2 is 48, a loopy tier whose
    # captures lead to 3-1 and 2-2. Connect Four 4x4: tiers ply0..ply16.
    list=$("$plan" morris:n=3 --list 2>&1)
    line=$(echo "$list" | awk '$2 == "3-2"')
    if [ "$(echo "$list" | grep -vc '^#')" -eq 50 ] && [ "$(echo "$list" | head -n 1 | cut -c1)" = "#" ] &&
        [ "$(echo "$line" | awk '{ print $1, $4, $5, $6 }')" = "48 yes tier-0048.gmdb 3-1,2-2" ]; then
        ok "tier-plan: --list names morris:n=3's tiers"
    else
        bad "tier-plan: --list of morris:n=3: $line"
    fi
    [ "$("$plan" morris:n=3 --tier 3-2)" = "$line" ] && [ "$("$plan" morris:n=3 --tier 48)" = "$line" ] &&
        ok "tier-plan: --tier by name and by number" ||
        bad "tier-plan: --tier 3-2: $("$plan" morris:n=3 --tier 3-2 2>&1)"
    [ "$("$plan" connect4:w=4,h=4 --list | awk '$1 == 16 { print $2, $6 }')" = "ply16 -" ] &&
        ok "tier-plan: --list of connect4:w=4,h=4" ||
        bad "tier-plan: --list of connect4:w=4,h=4: $("$plan" connect4:w=4,h=4 --list 2>&1 | tail -n 2)"
    plan_refuse "unknown tier name" "game 'morris:n=3,fly=2' has no tier '3-4'" morris:n=3 --tier 3-4
    plan_refuse "tier past the last" "game 'morris:n=3,fly=2' has no tier '50'" morris:n=3 --tier 50
    plan_refuse "tier twice" "--tier given twice" morris:n=3 --tier 3-2 --tier 3-3
    plan_refuse "list with plan options" "--list and --tier print the tiers only: no plan options" morris:n=3 --list --ranks 2
    plan_refuse "list and tier" "--list lists every tier, --tier NAME one: give one of them" morris:n=3 --list --tier 3-2
    out=$("$plan" nim --list 2>/tmp/cli_err.$$)
    rc=$?
    [ "$rc" -eq 3 ] && [ -z "$out" ] && grep -q "declares no tiers" /tmp/cli_err.$$ &&
        ok "tier-plan: --list of a game without tiers" ||
        bad "tier-plan: --list of nim: exit $rc, $(cat /tmp/cli_err.$$)"

    # The Morris scripts select tiers by name through the listing; DRY_RUN=1
    # prints the commands without solving. Placement tiers go fewest stones
    # in hand first, smallest first: hands 0-1 with nothing on the board
    # (tier 22, 2 slots), then 0-1 (23) and 1-0 (25), 18 slots each.
    m=$(dirname "$0")/../scripts/morris
    out=$(DRY_RUN=1 BIN="$solve" TIER_PLAN="$plan" sh "$m/sector-solve.sh" -n 3 -v "" -d /nonexistent 3-2 3-3 2>&1)
    [ "$(echo "$out" | sed -n 's/.*tier:sector=\([0-9]*\) .*/\1/p' | tr '\n' ' ')" = "48 49 " ] &&
        ok "morris scripts: sector-solve.sh finds sectors 3-2 and 3-3 by name" ||
        bad "morris scripts: sector-solve.sh dry run: $out"
    out=$(DRY_RUN=1 BIN="$solve" TIER_PLAN="$plan" sh "$m/sector-solve.sh" -n 3 -v "" -d /nonexistent 3-4 2>&1)
    rc=$?
    [ "$rc" -eq 2 ] && echo "$out" | grep -q "morris:n=3 has no tier named '3-4'" &&
        ok "morris scripts: an unknown sector is refused" ||
        bad "morris scripts: sector 3-4: exit $rc, $out"
    out=$(DRY_RUN=1 BIN="$solve" TIER_PLAN="$plan" sh "$m/placement-solve.sh" -n 3 -v "" -d /nonexistent -o /nonexistent -l 3 2>&1)
    [ "$(echo "$out" | awk '{ print $2, $3 }' | tr '\n' ' ')" = "22 0-0-hand0-1: 23 0-1-hand0-1: 25 1-0-hand0-1: " ] &&
        ok "morris scripts: placement-solve.sh's order from the listing" ||
        bad "morris scripts: placement-solve.sh dry run: $out"
else
    echo "skip tier-plan (no $plan)"
fi
rm -f /tmp/cli_err.$$

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
