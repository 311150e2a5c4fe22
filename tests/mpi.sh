#!/bin/sh
# tests/mpi.sh SOLVE SOLVE_MPI: end-to-end tests of bin/solve-mpi (the tier
# solver on Open MPI, core/dist.h) against bin/solve (one process).
#
# The reference for every comparison is the single-process tier solver,
# which test_tier cross-checks position by position against dfs; the root
# values and counts are also the published ones (tic-tac-toe: a tie, 5,478
# positions, the usual count of legal tic-tac-toe positions; Connect Four
# 5x4: a tie, 3,945,711 positions, issue 13 and John Tromp's tables).
# "Same database" is the db_checksum of the JSON (every record of every
# tier, chained in tier order), and with --work-dir the bytes of the files:
# the ranks' slices of a tier, laid end to end, must be the single-process
# tier file's payload.
#
# TEST_HEAVY=1 adds the 5x4 twins of the 4x4 runs (docs/testing.md).
# Ends with "mpi: N passed, N failed"; prints "mpi: skipped (...)" and
# exits 0 when mpirun is not installed.
set -u
solve=$1
solve_mpi=$2
if ! command -v mpirun >/dev/null 2>&1; then
    echo "mpi: skipped (no mpirun: scripts/deps.sh mpi installs Open MPI)"
    exit 0
fi
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
tmp=$(mktemp -d /tmp/mpi_test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# Every run is bounded: a hang is a failure, not a stuck test suite.
mpi() { # NRANKS ARGS...
    n=$1
    shift
    timeout 120 mpirun --allow-run-as-root --oversubscribe -np "$n" "$@"
}
fields='[.value, .remoteness, .positions, .wins, .losses, .ties, .draws, .db_checksum]'

# ref GAME: what one process reports for GAME (tier, one thread: test_tier
# checks that every thread count gives the same), solved once per game.
ref() {
    f="$tmp/ref-$(echo "$1" | tr -c 'a-z0-9\n' '_')"
    [ -s "$f" ] || "$solve" "$1" --solver tier --threads 1 --json | jq -c "$fields" >"$f"
    cat "$f"
}

# same NAME NRANKS THREADS GAME [SOLVER]: the MPI solve reports what one
# process does.
same() {
    name=$1 n=$2 threads=$3 game=$4 solver=${5:-tier}
    want=$(ref "$game")
    got=$(mpi "$n" "$solve_mpi" "$game" --solver "$solver" --threads "$threads" --json 2>"$tmp/err" |
        jq -c "$fields")
    if [ -n "$want" ] && [ "$got" = "$want" ] && ! echo "$want" | grep -q null; then
        ok "$name: $n ranks x $threads threads = one process $want"
    else
        bad "$name: $n ranks x $threads threads: $got, one process: $want ($(head -c 300 "$tmp/err"))"
    fi
}

# Published figures first (the reference must be right).
j=$("$solve" tictactoe --solver tier --json)
if echo "$j" | jq -e '.value == "tie" and .positions == 5478' >/dev/null; then
    ok "tictactoe one process: tie, 5478 positions"
else
    bad "tictactoe one process: $j"
fi
# (and the database is one process's: the same checksum)
j=$(mpi 3 "$solve_mpi" connect4:w=5,h=4 --solver tier --threads 1 --json)
if echo "$j" | jq -e '.value == "tie" and .positions == 3945711 and
        .solver_stats.mpi_ranks == 3 and .solver_stats.mpi_bytes_total > 0' >/dev/null &&
    [ "$(echo "$j" | jq -c "$fields")" = "$(ref connect4:w=5,h=4)" ]; then
    ok "connect4 5x4 on 3 ranks: tie, 3945711 positions, bytes exchanged, one process's database"
else
    bad "connect4 5x4 on 3 ranks: $j, one process: $(ref connect4:w=5,h=4)"
fi

same tictactoe 1 1 tictactoe
same tictactoe 2 1 tictactoe
same tictactoe 3 2 tictactoe
same "connect4 4x4" 2 1 connect4:w=4,h=4
same "connect4 4x4" 3 1 connect4:w=4,h=4
same "connect4 4x4" 2 2 connect4:w=4,h=4
same "connect4 4x4, tier:window" 2 1 connect4:w=4,h=4 tier:window
# tier:sliced: each rank keeps only its slices and fetches the child
# records it needs from their owners (MPI_Alltoallv; rma: MPI_Get).
# Tic-tac-toe's hash is not tier-major (index_of/position_at).
same "tictactoe, tier:sliced" 3 1 tictactoe tier:sliced
same "connect4 4x4, tier:sliced" 3 1 connect4:w=4,h=4 tier:sliced
same "connect4 4x4, tier:sliced" 2 2 connect4:w=4,h=4 tier:sliced
# Heavy (TEST_HEAVY=1; docs/testing.md): the same on 5x4, whose 3-rank
# solve above is the default set's.
if [ "${TEST_HEAVY:-}" = 1 ]; then
    same "connect4 5x4" 2 2 connect4:w=5,h=4
    same "connect4 5x4" 3 1 connect4:w=5,h=4
    same "connect4 5x4, tier:sliced" 2 2 connect4:w=5,h=4 tier:sliced
fi
same "connect4 4x4, tier:sliced,rma" 3 1 connect4:w=4,h=4 tier:sliced,rma
out=$(mpi 2 "$solve_mpi" dodgem --solver tier:sliced 2>&1)
rc=$?
if [ "$rc" -eq 3 ] && echo "$out" | grep -q "^solve: .*'dodgem' has loopy tiers"; then
    ok "tier:sliced refuses loopy tiers (exit 3)"
else
    bad "tier:sliced on dodgem: exit $rc, $(echo "$out" | head -c 300)"
fi
# Loopy tiers (solved whole by every rank; reference: bin/solve, which
# tests/test_solvers checks against retro).
same "dodgem (loopy tiers)" 2 1 dodgem
same "achi (loopy tiers)" 3 1 achi

# tier-probe (solvers/tier_probe.c), the instrumented variant of tier: not
# refused on several ranks (SolverModule.distributed), tier's database, and
# its figures those of one process (each position counted once over the
# ranks: their ranges of a tier, and a loopy tier by rank 0 alone).
probe='.solver_stats | with_entries(select(.key | startswith("probe_")))'
for args in "tictactoe 2 tier-probe" "connect4:w=4,h=4 3 tier-probe" \
    "connect4:w=4,h=4 2 tier-probe:sliced" "dodgem 2 tier-probe"; do
    # shellcheck disable=SC2086
    set -- $args
    same "$1, $3" "$2" 2 "$1" "$3"
    want=$("$solve" "$1" --solver tier-probe --threads 1 --json | jq -c "$probe")
    got=$(mpi "$2" "$solve_mpi" "$1" --solver "$3" --threads 2 --json 2>"$tmp/err" | jq -c "$probe")
    if echo "$want" | jq -e '.probe_positions > 0' >/dev/null && [ "$got" = "$want" ]; then
        ok "$1, $3: $2 ranks count what one process counts"
    else
        bad "$1, $3 on $2 ranks: $got, one process: $want ($(head -c 300 "$tmp/err"))"
    fi
done

# The exchange in pieces (the path of transfers past the MPI int limit).
want=$(ref connect4:w=4,h=4)
got=$(GAMESMAN_DIST_MAX_MSG=64 mpi 3 -x GAMESMAN_DIST_MAX_MSG "$solve_mpi" connect4:w=4,h=4 \
    --solver tier --threads 1 --json | jq -c "$fields")
if [ "$got" = "$want" ]; then
    ok "connect4 4x4, 3 ranks, 64-byte pieces = one process"
else
    bad "connect4 4x4 in 64-byte pieces: $got, one process: $want"
fi
got=$(GAMESMAN_DIST_MAX_MSG=64 mpi 3 -x GAMESMAN_DIST_MAX_MSG "$solve_mpi" connect4:w=4,h=4 \
    --solver tier:sliced --threads 1 --json | jq -c "$fields")
if [ "$got" = "$want" ]; then
    ok "connect4 4x4, tier:sliced, 3 ranks, 64-byte pieces = one process"
else
    bad "connect4 4x4, tier:sliced in 64-byte pieces: $got, one process: $want"
fi

# A piece size that is not a number of bytes from 64 to 2^30 is refused on
# every rank, reported once (by rank 0), not ignored.
rc=0
GAMESMAN_DIST_MAX_MSG=63 mpi 3 -x GAMESMAN_DIST_MAX_MSG "$solve_mpi" tictactoe >/dev/null 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 2 ] && [ "$(grep -c "GAMESMAN_DIST_MAX_MSG is '63'" "$tmp/err")" = 1 ]; then
    ok "3 ranks refuse GAMESMAN_DIST_MAX_MSG=63, one message"
else
    bad "3 ranks with GAMESMAN_DIST_MAX_MSG=63: exit $rc, $(head -c 300 "$tmp/err")"
fi

# Files: each rank writes its slices of every tier in DIR/rank-R-of-N (its
# own directory and lock: on its own disk in production), in the on-disk
# format of core/dbstore.h with the range in the header; rank 0 writes the
# manifest. A rerun loads every tier from the slices and must give the
# single-process database again (the checksum of every record), so the
# slices hold exactly the records.
g=connect4:w=4,h=4
want=$(ref "$g")
mpi 3 "$solve_mpi" "$g" --solver tier --threads 1 --work-dir "$tmp/three" --json >"$tmp/first.json"
listed=yes
for r in 0 1 2; do
    for t in $(seq 0 16); do
        f=$(printf 'rank-%d-of-3/tier-%04d.gmdb' "$r" "$t")
        # the manifest's header checksum is the file's (bytes 504..511)
        sum=$(od -A n -t x8 -j 504 -N 8 "$tmp/three/$f" 2>/dev/null | tr -d ' ')
        grep -q "^tier $t rank $r records .* file $f header $sum$" "$tmp/three/manifest-of-3.txt" ||
            listed="no ($f)"
    done
done
if [ "$listed" = yes ] && [ "$(jq -c "$fields" "$tmp/first.json")" = "$want" ]; then
    ok "3 ranks with --work-dir: 51 slice files, each in the manifest with its header checksum"
else
    bad "3 ranks with --work-dir: slices listed: $listed; $(jq -c "$fields" "$tmp/first.json")"
fi
mpi 3 "$solve_mpi" "$g" --solver tier --threads 1 --work-dir "$tmp/three" --json >"$tmp/again.json"
if [ "$(jq -c "$fields" "$tmp/again.json")" = "$want" ] &&
    jq -e '.solver_stats.tiers_loaded == 17 and .solver_stats.tiers_solved == 0' \
        "$tmp/again.json" >/dev/null; then
    ok "rerun on 3 ranks loads all 17 tiers from the slices: the single-process database"
else
    bad "rerun on 3 ranks: $(cat "$tmp/again.json")"
fi
# Slices cut for 3 ranks cannot be resumed on 2, nor read by one process:
# refused with the rank count to use (exit 5), not solved again beside them.
mpi 2 "$solve_mpi" "$g" --solver tier --threads 1 --work-dir "$tmp/three" >/dev/null 2>"$tmp/err"
rc1=$?
"$solve" "$g" --solver tier --work-dir "$tmp/three" >/dev/null 2>>"$tmp/err"
rc2=$?
if [ "$rc1" -eq 5 ] && [ "$rc2" -eq 5 ] &&
    grep -q "^solve: rank 0 of 2: .* a solve on 3 ranks .*, not 2; run on 3 ranks" "$tmp/err" &&
    grep -q "^solve: .* a solve on 3 ranks .*, not 1; run on 3 ranks" "$tmp/err" &&
    [ ! -d "$tmp/three/rank-0-of-2" ]; then
    ok "slices of 3 ranks refused on 2 ranks and by one process (exit 5, run on 3 ranks)"
else
    bad "slices of 3 ranks on 2 ranks / one process: exit $rc1 / $rc2, $(head -c 400 "$tmp/err")"
fi
# tier:sliced writes the same slices (byte for byte: the manifest's record
# checksums), and resumes when one rank lost a slice: that rank solves it
# again, fetching child records from the others, which only answer.
mpi 3 "$solve_mpi" "$g" --solver tier:sliced --threads 1 --work-dir "$tmp/sliced" --json \
    >"$tmp/s1.json"
rm "$tmp/sliced/rank-1-of-3/tier-0009.gmdb"
mpi 3 "$solve_mpi" "$g" --solver tier:sliced --threads 1 --work-dir "$tmp/sliced" --json \
    >"$tmp/s2.json"
if [ "$(jq -c "$fields" "$tmp/s1.json")" = "$want" ] &&
    [ "$(jq -c "$fields" "$tmp/s2.json")" = "$want" ] &&
    [ -f "$tmp/sliced/rank-1-of-3/tier-0009.gmdb" ] &&
    cmp -s "$tmp/sliced/manifest-of-3.txt" "$tmp/three/manifest-of-3.txt"; then
    ok "tier:sliced on 3 ranks with --work-dir: the same slices; resumes after a lost slice"
else
    bad "tier:sliced with --work-dir: $(cat "$tmp/s1.json" "$tmp/s2.json" | head -c 400)"
fi
# A damaged slice is refused by every rank, with the rank and the file named.
printf 'garbage' | dd of="$tmp/three/rank-2-of-3/tier-0010.gmdb" bs=1 seek=514 conv=notrunc \
    2>/dev/null
mpi 3 "$solve_mpi" "$g" --solver tier --threads 1 --work-dir "$tmp/three" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 5 ] && grep -q "^solve: rank 2 of 3: .*rank-2-of-3/tier-0010.gmdb is corrupt" "$tmp/err"; then
    ok "corrupt slice: exit 5, rank 2 and the file named"
else
    bad "corrupt slice: exit $rc, $(head -c 400 "$tmp/err")"
fi

# Reading an N-rank database with one process: rank 0's DIR/manifest
# lists every slice (rank-R-of-N/tier-NNNN.gmdb, its range, size and header
# checksum), and bin/solve --db DIR answers --query, --query -, --analyze
# and --verify from the slices once the rank directories are in DIR (here
# they are: one machine). Every position's answer must be the one from
# the single-process database. "Every position": all boards of tic-tac-toe
# and of Connect Four 4x3 with legal piece counts (and Connect Four's
# pieces stacked), generated here by awk, not by the solver; unreachable
# ones get the same refusal line from both. Tic-tac-toe is not tier-major
# (index_of/position_at), Connect Four is (first), so both look-ups run.
awk 'BEGIN { split("- x o", c, " ")
    for (i = 0; i < 19683; i++) { n = i; s = ""; nx = 0; no = 0
        for (k = 0; k < 9; k++) { d = n % 3; n = int(n / 3); s = s c[d + 1]; nx += d == 1; no += d == 2 }
        if (nx == no || nx == no + 1) print s } }' >"$tmp/ttt.in"
awk -v W=4 -v H=3 'BEGIN { n = 0
    for (h = 0; h <= H; h++) for (b = 0; b < 2 ^ h; b++) { ch[n] = h; cb[n] = b; n++ }
    for (i = 0; i < n ^ W; i++) { k = i; nx = 0; no = 0
        for (c = 0; c < W; c++) { ci[c] = k % n; k = int(k / n)
            for (r = 0; r < ch[ci[c]]; r++) if (int(cb[ci[c]] / 2 ^ r) % 2) nx++; else no++ }
        if (nx != no && nx != no + 1) continue
        s = ""
        for (r = H - 1; r >= 0; r--) { if (r < H - 1) s = s "/"
            for (c = 0; c < W; c++) { x = ci[c]
                s = s (r >= ch[x] ? "-" : (int(cb[x] / 2 ^ r) % 2 ? "x" : "o")) } }
        print s } }' >"$tmp/c43.in"
read_back() { # NAME GAME INPUT NRANKS...: queries from N-rank databases = one process's
    name=$1 game=$2 input=$3
    shift 3
    "$solve" "$game" --solver tier --db "$tmp/rb1" >/dev/null
    "$solve" "$game" --db "$tmp/rb1" --query - <"$input" >"$tmp/rb1.q" 2>&1
    "$solve" "$game" --db "$tmp/rb1" --analyze --json | jq -c "del(.wall_seconds, .peak_rss_bytes,
        .solver_stats, .threads)" >"$tmp/rb1.a"
    for n in "$@"; do
        for solver in tier tier:sliced; do
            rm -rf "$tmp/rbn"
            mpi "$n" "$solve_mpi" "$game" --solver "$solver" --threads 1 --db "$tmp/rbn" >/dev/null
            "$solve" "$game" --db "$tmp/rbn" --query - <"$input" >"$tmp/rbn.q" 2>&1
            "$solve" "$game" --db "$tmp/rbn" --analyze --json | jq -c "del(.wall_seconds,
                .peak_rss_bytes, .solver_stats, .threads)" >"$tmp/rbn.a"
            "$solve" "$game" --db "$tmp/rbn" --verify --threads 1 >"$tmp/rbn.v" 2>&1
            vrc=$?
            lines=$(grep -c '"value"' "$tmp/rbn.q")
            if cmp -s "$tmp/rb1.q" "$tmp/rbn.q" && cmp -s "$tmp/rb1.a" "$tmp/rbn.a" &&
                [ "$vrc" -eq 0 ] && [ "$lines" -gt 0 ]; then
                ok "$name: one process reads the $n-rank $solver database: $lines queries, analyze, verify the same"
            else
                bad "$name: $n-rank $solver database read back: verify exit $vrc, $lines queries,
                    $(cmp "$tmp/rb1.q" "$tmp/rbn.q" 2>&1) $(head -c 300 "$tmp/rbn.v")"
            fi
        done
    done
    rm -rf "$tmp/rb1"
}
read_back tictactoe tictactoe "$tmp/ttt.in" 2 3
# (the published count: 5,478 reachable positions, every other line refused)
n=$(grep -c '"value"' "$tmp/rb1.q")
[ "$n" = 5478 ] && ok "tictactoe queries: 5478 reachable" || bad "tictactoe queries: $n reachable"
read_back "connect4 4x3" connect4:w=4,h=3 "$tmp/c43.in" 2 3
# A slice that is not the one the manifest lists (another rank's, or
# damaged) and a missing one are refused, naming the file (exit 5).
cp "$tmp/rbn/rank-0-of-3/tier-0005.gmdb" "$tmp/rbn/rank-1-of-3/tier-0005.gmdb"
"$solve" connect4:w=4,h=3 --db "$tmp/rbn" --verify >/dev/null 2>"$tmp/err"
rc1=$?
rm "$tmp/rbn/rank-2-of-3/tier-0003.gmdb"
"$solve" connect4:w=4,h=3 --db "$tmp/rbn" --analyze >/dev/null 2>>"$tmp/err"
rc2=$?
if [ "$rc1" -eq 5 ] && [ "$rc2" -eq 5 ] && grep -q "rank-1-of-3/tier-0005.gmdb" "$tmp/err" &&
    grep -q "rank-2-of-3/tier-0003.gmdb" "$tmp/err"; then
    ok "a swapped slice and a missing slice are refused, the file named (exit 5)"
else
    bad "swapped/missing slice: exit $rc1 / $rc2, $(head -c 400 "$tmp/err")"
fi

# Failures end the job with the rank named, never a hang (timeout: 124).
# A rank refused for memory (its own --max-memory, mpirun's MPMD syntax):
G="connect4:w=4,h=4 --solver tier --threads 1"
# shellcheck disable=SC2086
timeout 120 mpirun --allow-run-as-root --oversubscribe -np 1 "$solve_mpi" $G --max-memory 1G : \
    -np 1 "$solve_mpi" $G --max-memory 10K >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 4 ] && grep -q "^solve: rank 1 of 2: .*memory budget" "$tmp/err" &&
    [ "$(grep -c '^solve:' "$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]; then
    ok "rank 1 refused for memory: exit 4, one message naming rank 1"
else
    bad "rank 1 refused for memory: exit $rc, $(head -c 400 "$tmp/err")"
fi
# A rank killed mid-solve: mpirun ends the job and names it.
mpirun --allow-run-as-root --oversubscribe -np 2 "$solve_mpi" connect4:w=5,h=4 --solver tier \
    --threads 1 --progress >/dev/null 2>"$tmp/err" &
launcher=$!
victim=""
for _ in $(seq 100); do
    victim=$(ps -o pid= --ppid "$launcher" 2>/dev/null | tail -n 1 | tr -d ' ')
    [ -n "$victim" ] && break
    sleep 0.05
done
# Into the solve: rank 0's first progress line comes after a collective, so
# every rank is past MPI's start-up (a rank killed inside MPI_Init can leave
# Open MPI 4.1's mpirun waiting; docs/scaling.md).
for _ in $(seq 300); do
    grep -q '^tier: ' "$tmp/err" && break
    sleep 0.1
done
[ -n "$victim" ] && kill -9 "$victim" 2>/dev/null
waited=0
while kill -0 "$launcher" 2>/dev/null && [ "$waited" -lt 600 ]; do
    sleep 0.1
    waited=$((waited + 1))
done
if kill -0 "$launcher" 2>/dev/null; then
    kill "$launcher"
    bad "killed rank: mpirun still running after 60 s"
else
    wait "$launcher"
    rc=$?
    # Open MPI names the rank either way: "process rank 1 ... signal 9", or
    # (when it counts the death as an exit) "Process name: [[job,1],1]".
    if [ -n "$victim" ] && [ "$rc" -ne 0 ] && { grep -q "rank [01] .*signal 9" "$tmp/err" ||
        grep -q "Process name: \[\[[0-9]*,[0-9]*\],[01]\]" "$tmp/err"; }; then
        ok "killed rank: job ended (exit $rc), the rank named"
    else
        bad "killed rank (pid ${victim:-none}): exit $rc, $(head -c 400 "$tmp/err")"
    fi
fi
# bin/tier-plan's network volume (from the tier sizes alone) is what the
# 2-rank solve counted in its collectives (core/dist.c).
plan=$(dirname "$solve")/tier-plan
want=$("$plan" connect4:w=4,h=4 --ranks 2 | sed -n 's/^network .*in all (\([0-9]*\) bytes)$/\1/p')
got=$(mpi 2 "$solve_mpi" connect4:w=4,h=4 --solver tier --threads 1 --json |
    jq '.solver_stats.mpi_bytes_total')
if [ -n "$want" ] && [ "$want" = "$got" ]; then
    ok "tier-plan's network volume = the 2-rank solve's ($got bytes)"
else
    bad "tier-plan's network volume: plan '$want', solve '$got'"
fi
"$plan" connect4 --ranks 0 >/dev/null 2>"$tmp/err"
rc1=$?
"$plan" quarto --ranks 2 >/dev/null 2>>"$tmp/err"
rc2=$?
if [ "$rc1" -eq 2 ] && [ "$rc2" -eq 3 ] && grep -q "^tier-plan: --ranks" "$tmp/err" &&
    grep -q "^tier-plan: game 'quarto' declares no tiers" "$tmp/err"; then
    ok "tier-plan refuses --ranks 0 (exit 2) and a game without tiers (exit 3)"
else
    bad "tier-plan refusals: exit $rc1 and $rc2, $(cat "$tmp/err")"
fi
# Only the tier solver is distributed.
out=$(mpi 2 "$solve_mpi" tictactoe --solver dfs 2>&1)
rc=$?
if [ "$rc" -eq 3 ] && echo "$out" | grep -q "give --solver tier"; then
    ok "dfs on 2 ranks refused (exit 3)"
else
    bad "dfs on 2 ranks: exit $rc, $out"
fi
# Issue 33, D3: every file the MPI path writes goes through the safe write
# (a fresh O_EXCL|O_NOFOLLOW temporary file, renamed): a link planted as
# the N-rank manifest's old temporary name is never followed, so the file
# it points at keeps its bytes; the solve succeeds beside it.
mkdir "$tmp/d3"
echo VICTIM >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/d3/manifest-of-2.txt.tmp"
j=$(mpi 2 "$solve_mpi" tictactoe --solver tier --db "$tmp/d3" --json 2>"$tmp/err")
if [ "$(cat "$tmp/victim")" = VICTIM ] && echo "$j" | jq -e '.db_checksum != null' >/dev/null &&
    head -1 "$tmp/d3/manifest-of-2.txt" | grep -q "^gamesman tier database in 2 ranks$"; then
    ok "planted link at manifest-of-2.txt.tmp not followed (victim untouched)"
else
    bad "planted manifest link: victim '$(cat "$tmp/victim")', $(cat "$tmp/err")"
fi
# ... a symlinked rank-R-of-N is refused, not followed (exit 5, one line
# naming it), and nothing is written where it points; a top directory
# every user may write without the sticky bit is refused as bin/solve
# refuses it.
mkdir "$tmp/d3r" "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$tmp/d3r/rank-1-of-2"
mpi 2 "$solve_mpi" tictactoe --solver tier --db "$tmp/d3r" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 5 ] && grep -q "rank-1-of-2: it is a symbolic link" "$tmp/err" &&
    [ -z "$(ls "$tmp/elsewhere")" ]; then
    ok "symlinked rank-1-of-2 refused (exit 5), nothing written through it"
else
    bad "symlinked rank directory: exit $rc, $(ls "$tmp/elsewhere"), $(cat "$tmp/err")"
fi
mkdir "$tmp/d3w"
chmod 777 "$tmp/d3w"
mpi 2 "$solve_mpi" tictactoe --solver tier --db "$tmp/d3w" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 5 ] && grep -q "can be written by every user and has no sticky bit" "$tmp/err" &&
    [ -z "$(ls "$tmp/d3w")" ]; then
    ok "world-writable DIR without sticky bit refused on 2 ranks (exit 5)"
else
    bad "world-writable DIR on 2 ranks: exit $rc, $(ls "$tmp/d3w"), $(cat "$tmp/err")"
fi
# A complete N-rank solve leaves no reach.gmdb in its rank directories
# (docs/database.md: removed once the manifest is written, as with one
# process), and a rerun from them gives the same database.
a=$(mpi 2 "$solve_mpi" tictactoe --solver tier --db "$tmp/d3" --json 2>/dev/null | jq -c "$fields")
b=$("$solve" tictactoe --solver tier --json 2>/dev/null | jq -c "$fields")
if [ -f "$tmp/d3/manifest" ] && [ ! -e "$tmp/d3/rank-0-of-2/reach.gmdb" ] &&
    [ ! -e "$tmp/d3/rank-1-of-2/reach.gmdb" ] && [ -n "$a" ] && [ "$a" = "$b" ]; then
    ok "no reach.gmdb left in the rank directories; the rerun's database is the same"
else
    bad "reach.gmdb after a 2-rank solve: $(ls "$tmp/d3"/rank-*), '$a' vs '$b'"
fi

echo "mpi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
