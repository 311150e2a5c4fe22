#!/bin/sh
# fuzz/corpus.sh SOLVE SOLVE_MPI OUT: the fuzz targets' reference databases
# and seed corpora, made from real small solves (Makefile: make fuzz and
# make test run it once; nothing here is committed).
#
#   OUT/dbs/NAME            databases written by SOLVE (bin/solve) and, when
#                           mpirun is installed, by SOLVE_MPI on 2 ranks:
#                           tictactoe-{tier,dfs,symbolic,mpi2},
#                           connect4-4x4-{tier,dfs,symbolic}, othello-4x2-dfs
#                           (WinBy scores); the targets manifest and symdb
#                           read them through $GAMESMAN_FUZZ_DBS
#   OUT/corpus/TARGET/      each target's seeds, in its input format (the
#                           mode bytes of fuzz/TARGET.c, then the bytes):
#     dbfile    every record file of OUT/dbs (tiers, slots, rank slices,
#               BDD plies, reach bitmaps), checksums-repair bit set
#     manifest  every manifest, with the byte that picks its own database
#     symdb     every ply file, with the byte that picks its ply
#     query     written by fuzz-query itself (GAMESMAN_FUZZ_SEEDS): each
#               variant's first positions
#     matrix    bench/matrix.txt
#     journal   a --verify journal of connect4-4x4-tier (read; verified with
#               it), and its first half (verified with it)
#   OUT/corpus/stamp        written last
set -eu
solve=$1
solve_mpi=$2
out=$3
here=$(cd "$(dirname "$0")" && pwd)

rm -rf "$out/dbs" "$out/corpus"
mkdir -p "$out/dbs"
for t in dbfile manifest symdb query matrix journal; do
    mkdir -p "$out/corpus/$t"
done

mk() { # NAME GAME SOLVER
    if ! "$solve" "$2" --solver "$3" --db "$out/dbs/$1" >"$out/dbs/$1.log" 2>&1; then
        echo "fuzz/corpus.sh: $solve $2 --solver $3 failed:" >&2
        cat "$out/dbs/$1.log" >&2
        exit 1
    fi
}
mk tictactoe-tier tictactoe tier
mk tictactoe-dfs tictactoe dfs
mk tictactoe-symbolic tictactoe symbolic
mk connect4-4x4-tier connect4:w=4,h=4 tier
mk connect4-4x4-dfs connect4:w=4,h=4 dfs
mk connect4-4x4-symbolic connect4:w=4,h=4 symbolic
mk othello-4x2-dfs othello:w=4,h=2 dfs
if command -v mpirun >/dev/null 2>&1 && [ -x "$solve_mpi" ]; then
    if ! timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 "$solve_mpi" tictactoe \
        --solver tier --db "$out/dbs/tictactoe-mpi2" >"$out/dbs/tictactoe-mpi2.log" 2>&1; then
        echo "fuzz/corpus.sh: the 2-rank solve failed:" >&2
        cat "$out/dbs/tictactoe-mpi2.log" >&2
        exit 1
    fi
else
    echo "fuzz/corpus.sh: no mpirun or $solve_mpi: no N-rank database in the seeds" >&2
fi

# seed FILE TARGET NAME MODEBYTES...: the file's bytes after the mode bytes
# (given as octal escapes for printf).
seed() {
    { printf "$4"; cat "$1"; } >"$out/corpus/$2/$3"
}

# The manifest target's database numbers (fuzz/manifest.c ref_names).
manifest_mode() {
    case "$1" in
    tictactoe-tier) echo '\001' ;;     # 1 | 0 << 1 (bit 4, store_verify, left to the fuzzer)
    tictactoe-dfs) echo '\003' ;;      # 1 | 1 << 1
    tictactoe-symbolic) echo '\005' ;; # 1 | 2 << 1
    tictactoe-mpi2) echo '\007' ;;     # 1 | 3 << 1
    connect4-4x4-tier) echo '\011' ;;  # 1 | 4 << 1
    *) echo '' ;;
    esac
}

for d in "$out"/dbs/*/; do
    d=${d%/}
    name=$(basename "$d")
    for f in "$d"/*.gmdb "$d"/rank-*/*.gmdb; do
        [ -f "$f" ] || continue
        rel=$(echo "${f#"$d"/}" | tr '/' '_')
        seed "$f" dbfile "$name-$rel" '\001'
    done
    mode=$(manifest_mode "$name")
    [ -n "$mode" ] && seed "$d/manifest" manifest "$name" "$mode"
    case "$name" in
    tictactoe-symbolic | connect4-4x4-symbolic)
        m='\003'
        [ "$name" = connect4-4x4-symbolic ] && m='\101'
        for f in "$d"/ply-*.gmdb; do
            k=$(basename "$f" .gmdb | sed 's/^ply-0*//')
            seed "$f" symdb "$name-$(basename "$f")" "$m$(printf '\\%03o' "${k:-0}")"
        done
        ;;
    esac
done
cp "$here/../bench/matrix.txt" "$out/corpus/matrix/matrix.txt"
# fuzz/journal.c's mode byte: 0 read the journal, 2 verify with it
"$solve" connect4:w=4,h=4 --db "$out/dbs/connect4-4x4-tier" --verify --journal \
    "$out/corpus/journal.txt" >/dev/null
head -n 9 "$out/corpus/journal.txt" >"$out/corpus/journal-half.txt"
seed "$out/corpus/journal.txt" journal connect4-4x4-tier '\000'
seed "$out/corpus/journal.txt" journal connect4-4x4-tier-verify '\002'
seed "$out/corpus/journal-half.txt" journal connect4-4x4-tier-half '\002'
rm -f "$out/corpus/journal.txt" "$out/corpus/journal-half.txt"
GAMESMAN_FUZZ_SEEDS="$out/corpus/query" "$out/bin/fuzz-query" -runs=0 "$out/corpus/query" \
    >"$out/corpus/query.log" 2>&1 || {
    cat "$out/corpus/query.log" >&2
    exit 1
}
date -u +%FT%TZ >"$out/corpus/stamp"
echo "fuzz/corpus.sh: seeds in $out/corpus ($(ls "$out"/corpus/*/ | grep -vc ':$\|^$') files)"
