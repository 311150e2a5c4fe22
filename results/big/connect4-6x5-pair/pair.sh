#!/bin/sh
# results/big/connect4-6x5-pair/pair.sh SCRATCH: Connect Four 6x5 by
# tier:window, then by tier:blocks, each into a fresh --db under SCRATCH,
# under the bench lock (scripts/big-solve.sh), the machine alone; then the
# records moved here (window.*, blocks.*). Run from the repository's root
# with the timing build made (make build/timing/bin/solve).
set -eu
s=$1
P=results/big/connect4-6x5-pair
rm -rf "$s/c65w" "$s/c65b"
scripts/big-solve.sh connect4-6x5-pair-window /usr/bin/time -v -o $P/window-time-v.txt \
    build/timing/bin/solve connect4:w=6,h=5 --solver tier:window --threads 2 --db "$s/c65w" \
    --json --max-memory 8G
scripts/big-solve.sh connect4-6x5-pair-blocks /usr/bin/time -v -o $P/blocks-time-v.txt \
    build/timing/bin/solve connect4:w=6,h=5 --solver tier:blocks --threads 2 --db "$s/c65b" \
    --progress --json 2>"$s/c65b-progress.txt"
for k in window blocks; do
    mv results/big/connect4-6x5-pair-$k.json $P/$k.json
    mv results/big/connect4-6x5-pair-$k.txt $P/$k.txt
done
