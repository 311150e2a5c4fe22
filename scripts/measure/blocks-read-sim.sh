#!/bin/sh
# scripts/measure/blocks-read-sim.sh W H CACHE...: the model of tier:blocks'
# child block reads on Connect Four WxH for each cache size (file blocks a
# thread), bench/blocks_reads.c (its contract there), built into
# build/tools/blocks_reads against the release build's library (made first:
# make build/release/libgamesman.a). docs/connect-four.md has the figures:
#   scripts/measure/blocks-read-sim.sh 6 5 4096 16384 32768 65536
set -eu
[ $# -ge 3 ] || { echo "usage: scripts/measure/blocks-read-sim.sh W H CACHE..." >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
tool=$here/build/tools/blocks_reads
lib=$here/build/release/libgamesman.a
[ -f "$lib" ] || { echo "blocks-read-sim.sh: make build/release/libgamesman.a first" >&2; exit 2; }
mkdir -p "$(dirname "$tool")"
gcc -std=c17 -Wall -Wextra -Werror -O2 -I"$here" -D_POSIX_C_SOURCE=200809L -o "$tool" \
    "$here/bench/blocks_reads.c" "$lib" -fopenmp -ljemalloc -lbdd -lzstd -lm
exec "$tool" "$@"
