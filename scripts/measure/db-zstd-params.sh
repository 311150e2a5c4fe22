#!/bin/sh
# scripts/measure/db-zstd-params.sh STRIDE FILE.gmdb...: the zstd parameters of the
# database writer, and the packed blocks, measured (docs/database.md). Builds
# bench/db_recompress.c (build/tools/db_recompress, with the system's
# libzstd) and, for each configuration, recompresses every STRIDE-th block
# of the given record files as core/dbstore.c does, under valgrind's
# callgrind. Prints one row per configuration: the tool's options (plain or
# packed blocks: --packed, --packed-bmi2; a dictionary per file of at most
# BYTES, as the writer makes it: --dict BYTES; level; minMatch, 0: the
# level's default, 5 at level 1 for 4 KiB blocks), bytes of the recompressed
# blocks, their change against the files' own bytes, the new dictionaries'
# bytes (0 without --dict), the instructions spent
# compressing (callgrind Ir of compress_block, packing included) and those
# spent decompressing them again (decompress_block, unpacking included):
# independent of the machine's load.
# Example, on the tier files of a Connect Four 6x5 database:
#   scripts/measure/db-zstd-params.sh 64 DIR/tier-*.gmdb
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/measure/db-zstd-params.sh STRIDE FILE.gmdb..." >&2; exit 2; }
stride=$1
shift
here=$(cd "$(dirname "$0")/../.." && pwd)
tool=$here/build/tools/db_recompress
mkdir -p "$(dirname "$tool")"
gcc -std=c17 -Wall -Wextra -Werror -O2 -g -o "$tool" "$here/bench/db_recompress.c" -lzstd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Ir of function $1 in a callgrind run of the tool with the remaining arguments
ir() {
    fn=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --collect-atstart=no \
        --toggle-collect="$fn" "$tool" "$@" >"$tmp/line" 2>/dev/null
    callgrind_annotate "$tmp/cg" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p'
}
# the blocks sampled (zero, constant non-zero, compressed), once
echo "# $("$tool" 1 0 "$stride" "$@")"
echo "options bytes change dictionary_bytes compress_instructions decompress_instructions"
for config in "1 0" "1 6" "1 7" "-1 0" "--packed 1 7" "--packed-bmi2 1 7" "--dict 2048 1 7" \
    "--dict 4096 1 7" "--dict 8192 1 7"; do
    # shellcheck disable=SC2086
    c=$(ir compress_block $config "$stride" "$@")
    bytes=$(sed -n 's/.*recompressed \([0-9]*\) (\([^)]*\)).*/\1 \2/p' "$tmp/line")
    dict=$(sed -n 's/.*new \([0-9]*\) bytes.*/\1/p' "$tmp/line")
    # shellcheck disable=SC2086
    d=$(ir decompress_block $config "$stride" "$@")
    echo "$config $bytes $dict $c $d"
done
