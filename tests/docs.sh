#!/bin/sh
# tests/docs.sh SOLVE: the documentation check (docs/testing.md, "The
# documentation check"), run from the repository root by make test with the
# release bin/solve. Over README.md and docs/*.md:
#   1. every relative link points at an existing file, and its #anchor at a
#      heading of that file (GitHub's slugs);
#   2. every `bin/solve ...` command shown parses: run with --check-args,
#      which resolves game, position, solver and options and exits 0 without
#      solving. Commands with placeholders are skipped (the rule is in
#      docs/testing.md); bin/solve-mpi, mpirun and bin/tier-plan lines are
#      not run; every script named (scripts/..., results/.../NAME.sh) must
#      exist, and no script under scripts/ may name a machine's directory;
#      the solver registry docs/adding-a-solver.md shows is the file's;
#   3. scripts/readme-table.sh on copies of README.md, docs/loopy.md and
#      docs/games.md:
#      idempotent, sensitive to the reference results and to results/big/
#      (the Morris tables in docs/loopy.md), refusing files without their
#      markers, and the committed tables of all three are those the
#      committed results give;
#   4. the Bagh Chal series' tables in docs/games.md (between the
#      baghchal-sliding and baghchal-placement markers) follow the records
#      in results/big/baghchal5: one tier's record changed changes its row.
# Ends with "docs: N passed, N failed". Takes a few seconds.
set -u
solve=$1
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files="README.md $(ls docs/*.md)"

# slugs FILE: the GitHub anchors of FILE's headings, one per line (outside
# fenced and indented code; duplicates get -1, -2, ...).
slugs() {
    LC_ALL=C awk '
        /^```/ { fence = !fence; next }
        fence || /^    / { next }
        /^#+ / {
            s = $0; sub(/^#+ +/, "", s); s = tolower(s)
            gsub(/[^a-z0-9 _\200-\377-]/, "", s); gsub(/ /, "-", s)
            if (s in seen) { seen[s]++; print s "-" seen[s] } else { seen[s] = 0; print s }
        }' "$1"
}

# links FILE: "target" of every [text](target) outside code, one per line.
links() {
    awk '
        /^```/ { fence = !fence; next }
        fence || /^    / { next }
        {
            s = $0; gsub(/`[^`]*`/, "", s)
            while (match(s, /\]\([^) ]+\)/)) {
                print substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH)
            }
        }' "$1"
}

# 1. links and anchors
nlinks=0
for f in $files; do
    dir=$(dirname "$f")
    for l in $(links "$f"); do
        case "$l" in *:*) continue ;; esac # https:, mailto:
        nlinks=$((nlinks + 1))
        path=${l%%#*}
        anchor=""
        case "$l" in *'#'*) anchor=${l#*#} ;; esac
        target=$f
        [ -n "$path" ] && target="$dir/$path"
        if [ ! -e "$target" ]; then
            bad "link $f -> $l: no file $target"
        elif [ -n "$anchor" ] && ! slugs "$target" | grep -qxF "$anchor"; then
            bad "link $f -> $l: no heading with anchor #$anchor in $target"
        fi
    done
done
[ "$nlinks" -gt 20 ] && ok "links: $nlinks relative links checked" ||
    bad "links: only $nlinks links found (the extraction is broken)"

# every docs/*.md is reachable from the front page
for f in docs/*.md; do
    links README.md | grep -qxF "$f" || bad "README.md does not link $f"
done
ok "README.md links every docs/*.md"

# commands FILE: the bin/solve commands of FILE, one per line: code lines
# (indented or fenced; "\" continuations joined) and `...` spans of the text.
commands() {
    awk '
        function emit(s) {
            if (!match(s, /(^|[ (])(build\/[a-z]+\/)?bin\/solve( |$)/)) return
            s = substr(s, RSTART); sub(/^[ (]/, "", s)
            sub(/ +#.*/, "", s); sub(/ *[|;&>].*/, "", s); sub(/\)$/, "", s)
            print s
        }
        /^```/ { fence = !fence; next }
        fence || /^    / {
            line = line $0
            if (line ~ /\\$/) { sub(/\\$/, "", line); next }
            sub(/^ *\$ /, "", line); emit(line); line = ""; next
        }
        {
            s = $0
            while (match(s, /`[^`]+`/)) {
                span = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
                emit(span) # after: emit() moves RSTART
            }
        }' "$1"
}

# 2. commands
nrun=0
nskip=0
for f in $files; do
    commands "$f" >"$tmp/cmds"
    while IFS= read -r c; do
        # Placeholders: a word of capitals (GAME, S, DIR, WxH), ..., <...>, $,
        # mygame and mysolver (the examples of docs/adding-a-*.md).
        if printf '%s\n' "$c" | grep -Eq '(^|[ :,=/])([A-Z]+|[A-Z]x[A-Z])([ :,=/]|$)|\.\.\.|[<>$]|mygame|mysolver'; then
            nskip=$((nskip + 1))
            continue
        fi
        args=${c#* } # drop the binary
        [ "$args" = "$c" ] && args=""
        # A mention without a game (`bin/solve`, `bin/solve --json`) names the
        # program or an option; it is not a command.
        case "$args" in "" | --list* | --help*) ;; -*) continue ;; esac
        [ -n "$args" ] || continue
        set -f
        # shellcheck disable=SC2086
        eval "set -- $args"
        set +f
        if "$solve" "$@" --check-args >/dev/null 2>"$tmp/err"; then
            nrun=$((nrun + 1))
        else
            bad "$f: '$c' does not parse: $(cat "$tmp/err")"
        fi
    done <"$tmp/cmds"
done
[ "$nrun" -gt 20 ] && ok "commands: $nrun bin/solve commands parse ($nskip with placeholders skipped)" ||
    bad "commands: only $nrun commands found (the extraction is broken)"

# --check-args itself: refuses what a solve would refuse for bad input, and
# solves nothing (7x6 Connect Four would need terabytes).
"$solve" connect4:w=7,h=6 --solver gps-cached --check-args >"$tmp/out" 2>&1 && [ ! -s "$tmp/out" ] &&
    ok "--check-args: exit 0 and no output without solving" || bad "--check-args on a valid command"
for bad_cmd in "nosuchgame" "tictactoe --solver nosuch" "tictactoe --query zz" \
    "tictactoe --threads 0" "tictactoe --solver tier:window --query x--------"; do
    # shellcheck disable=SC2086
    "$solve" $bad_cmd --check-args >/dev/null 2>&1
    rc=$?
    [ "$rc" = 2 ] && ok "--check-args refuses '$bad_cmd' (exit 2)" ||
        bad "--check-args on '$bad_cmd': exit $rc, expected 2"
done
"$solve" dodgem --solver dfs --check-args >/dev/null 2>&1
rc=$?
[ "$rc" = 3 ] && ok "--check-args: dfs on a loopy game exits 3" || bad "--check-args dfs dodgem: exit $rc"

# every script the docs name exists: scripts/NAME, scripts/DIR/NAME, and
# the one-off scripts kept beside their data (results/.../NAME.sh); the
# count guards the extraction (the docs name dozens)
nscripts=0
for s in $(cat $files results/big/README.md |
    grep -o '\(scripts\|results\)/[A-Za-z0-9_./-]*\.\(sh\|jq\|awk\)' | sort -u); do
    nscripts=$((nscripts + 1))
    [ -f "$s" ] || bad "docs name $s, which does not exist"
done
[ "$nscripts" -gt 20 ] && ok "the $nscripts scripts named in the docs exist" ||
    bad "scripts: only $nscripts named in the docs (the extraction is broken)"

# the solver registry docs/adding-a-solver.md shows is solvers/registry.c's
# (the entries of solver_registry[], in order)
registry() { sed -n '/solver_registry\[\] = {/,/};/p' "$1" | grep -o '&[a-z_]*_solver'; }
if [ -n "$(registry solvers/registry.c)" ] &&
    [ "$(registry solvers/registry.c)" = "$(registry docs/adding-a-solver.md)" ]; then
    ok "docs/adding-a-solver.md shows the registry of solvers/registry.c"
else
    bad "docs/adding-a-solver.md's registry is not solvers/registry.c's: $(registry docs/adding-a-solver.md | tr '\n' ' ')"
fi

# no script under scripts/ names one machine's directory: paths come from
# options, the environment or the repository (the lock's default is /tmp)
if grep -rnE '/(work|home|scratch|mnt|Users)/' scripts/ >"$tmp/paths"; then
    bad "scripts name a machine's directory: $(head -n 3 "$tmp/paths")"
else
    ok "no machine paths in scripts/"
fi

# 3. the README table generator, on copies (its fourth and fifth
# arguments, the files of the Morris and Bagh Chal tables, are always
# copies too: never docs/loopy.md or docs/games.md itself)
gen=scripts/readme-table.sh
mkdir -p "$tmp/ref" "$tmp/big"
cp results/reference/bench.json "$tmp/ref/"
cp README.md "$tmp/README.md"
cp docs/loopy.md "$tmp/loopy.md"
cp docs/games.md "$tmp/games.md"
L="$tmp/loopy.md"
G="$tmp/games.md"
"$gen" "$tmp/README.md" "$tmp/ref" "$tmp/big" "$L" "$G" >/dev/null 2>&1 && cp "$tmp/README.md" "$tmp/once.md" &&
    cp "$L" "$tmp/once-loopy.md" &&
    "$gen" "$tmp/README.md" "$tmp/ref" "$tmp/big" "$L" "$G" >/dev/null 2>&1 && cmp -s "$tmp/README.md" "$tmp/once.md" &&
    cmp -s "$L" "$tmp/once-loopy.md" &&
    ok "readme-table: a second run changes nothing" || bad "readme-table: not idempotent"
# dfs on tic-tac-toe twice as slow: its row's time and ratios change.
jq '(.benchmarks[] | select(.run_name == "dfs/tictactoe/manual_time") | .real_time) |= . * 2' \
    results/reference/bench.json >"$tmp/ref/bench.json"
"$gen" "$tmp/README.md" "$tmp/ref" "$tmp/big" "$L" "$G" >/dev/null 2>&1
if ! cmp -s "$tmp/README.md" "$tmp/once.md" &&
    [ "$(diff "$tmp/README.md" "$tmp/once.md" | grep -c '^[<>] | `tictactoe`')" = 2 ]; then
    ok "readme-table: a changed reference run changes the tic-tac-toe time row"
else
    bad "readme-table: a changed bench.json did not change exactly the tictactoe time row"
fi
# a big solve appears; one without its .txt is refused
"$solve" tictactoe --json >"$tmp/big/t.json"
printf 'command=bin/solve tictactoe --json\ndate=2026-01-01T00:00:00Z\nload=0 / 0\n' >"$tmp/big/t.txt"
"$gen" "$tmp/README.md" "$tmp/ref" "$tmp/big" "$L" "$G" >/dev/null 2>&1 &&
    grep -q '^| `tictactoe` | `gps-cached` | 1 | tie in 9 | 5,478 |' "$tmp/README.md" &&
    ok "readme-table: a results/big solve appears" || bad "readme-table: big solve row missing"
# a solve in segments: its wall is the last segment's, and the row says so
printf 'segment=start 2026-01-01T00:00:00Z load 0 0 0\nsegment=end 2026-01-01T01:00:00Z exit 143 load 0 0 0\nsegment=start 2026-01-02T00:00:00Z load 0 0 0\n' >>"$tmp/big/t.txt"
"$gen" "$tmp/README.md" "$tmp/ref" "$tmp/big" "$L" "$G" >/dev/null 2>&1 &&
    grep '^| `tictactoe` | `gps-cached` |' "$tmp/README.md" | grep -q '; wall and peak: the last of 2 segments) |' &&
    ok "readme-table: a solve in segments says its wall is the last segment's" ||
    bad "readme-table: a solve in segments shows a wall without its segments"
printf 'command=bin/solve tictactoe --json\ndate=2026-01-01T00:00:00Z\nload=0 / 0\n' >"$tmp/big/t.txt"
cp "$tmp/big/t.json" "$tmp/big/u.json"
"$gen" "$tmp/README.md" "$tmp/ref" "$tmp/big" "$L" "$G" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] && ok "readme-table: a .json without its .txt is refused" || bad "readme-table: exit $rc"
rm "$tmp/big/u.json"
# no markers in any one of the files: refused, no file touched
printf '# no markers\n' >"$tmp/plain.md"
cp "$L" "$tmp/before-loopy.md"
cp "$G" "$tmp/before-games.md"
"$gen" "$tmp/plain.md" "$tmp/ref" "$tmp/big" "$L" "$G" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] && [ "$(cat "$tmp/plain.md")" = "# no markers" ] && cmp -s "$L" "$tmp/before-loopy.md" &&
    cmp -s "$G" "$tmp/before-games.md" &&
    ok "readme-table: a README without markers is refused" || bad "readme-table: no markers: exit $rc"
cp "$tmp/README.md" "$tmp/before.md"
"$gen" "$tmp/README.md" "$tmp/ref" "$tmp/big" "$tmp/plain.md" "$G" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] && [ "$(cat "$tmp/plain.md")" = "# no markers" ] && cmp -s "$tmp/README.md" "$tmp/before.md" &&
    cmp -s "$G" "$tmp/before-games.md" &&
    ok "readme-table: a Morris file without markers is refused" ||
    bad "readme-table: no Morris markers: exit $rc"
# a Bagh Chal file with its sliding markers but not its placement ones
grep -vF '<!-- baghchal-placement:' "$G" >"$tmp/half.md"
cp "$tmp/half.md" "$tmp/before-half.md"
"$gen" "$tmp/README.md" "$tmp/ref" "$tmp/big" "$L" "$tmp/half.md" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] && cmp -s "$tmp/half.md" "$tmp/before-half.md" && cmp -s "$tmp/README.md" "$tmp/before.md" &&
    cmp -s "$L" "$tmp/before-loopy.md" &&
    ok "readme-table: a Bagh Chal file without its placement markers is refused" ||
    bad "readme-table: no Bagh Chal placement markers: exit $rc"
# the Morris tables follow results/big/morris9s: one sector's wins changed
# change that sector's row in the Morris file, and nothing in the README
cp -r results/big/morris9s "$tmp/big/"
"$gen" "$tmp/README.md" "$tmp/ref" "$tmp/big" "$L" "$G" >/dev/null 2>&1 && cp "$tmp/README.md" "$tmp/m.md" &&
    cp "$L" "$tmp/m-loopy.md" &&
    grep -q '^| 3-3 | 169,626 | 140,621 |' "$L" &&
    jq -c '.solver_stats.sector_wins += 1' results/big/morris9s/sector-3-3.json >"$tmp/big/morris9s/sector-3-3.json" &&
    "$gen" "$tmp/README.md" "$tmp/ref" "$tmp/big" "$L" "$G" >/dev/null 2>&1 &&
    cmp -s "$tmp/README.md" "$tmp/m.md" &&
    [ "$(diff "$L" "$tmp/m-loopy.md" | grep -c '^[<>] | 3-3 |')" = 2 ] &&
    grep -q '^| 3-3 | 169,626 | 140,622 |' "$L" &&
    ok "readme-table: a changed sector record changes its row in the Morris tables only" ||
    bad "readme-table: a changed sector record did not change exactly its Morris row"
# the committed README, docs/loopy.md and docs/games.md match the
# committed results
cp README.md "$tmp/now.md"
cp docs/loopy.md "$tmp/now-loopy.md"
cp docs/games.md "$tmp/now-games.md"
"$gen" "$tmp/now.md" results/reference results/big "$tmp/now-loopy.md" "$tmp/now-games.md" >/dev/null 2>&1 &&
    cmp -s "$tmp/now.md" README.md && cmp -s "$tmp/now-loopy.md" docs/loopy.md &&
    cmp -s "$tmp/now-games.md" docs/games.md &&
    ok "README.md's, docs/loopy.md's and docs/games.md's tables match results/" ||
    bad "README.md's, docs/loopy.md's or docs/games.md's tables are out of date with results/: run make readme-table"

# 4. the Bagh Chal series' tables follow results/big/baghchal5: a tier's
# wins changed change its hand's row of docs/games.md's placement table
# and nothing else there, nor in the README or the Morris file; its
# sliding table is sliding-solve.sh -t's over the first run's records.
mkdir -p "$tmp/bc/ref"
cp results/reference/bench.json "$tmp/bc/ref/"
cp -r results/big "$tmp/bc/big"
for f in README.md docs/loopy.md docs/games.md; do cp "$f" "$tmp/bc/"; done
bcg() { "$gen" "$tmp/bc/README.md" "$tmp/bc/ref" "$tmp/bc/big" "$tmp/bc/loopy.md" "$tmp/bc/games.md" >/dev/null 2>&1; }
bc5=$tmp/bc/big/baghchal5
first=$(head -n 1 "$bc5/placement.jsonl" | jq .hand)
# (the README's and the Morris file's links name the copy's BIG_DIR: they
# are compared with the run before the change, not with the committed)
bcg && cmp -s "$tmp/bc/games.md" docs/games.md && cp "$tmp/bc/README.md" "$tmp/bc/README.0" &&
    cp "$tmp/bc/loopy.md" "$tmp/bc/loopy.0" &&
    jq -cs '.[0].wins += 1 | .[]' results/big/baghchal5/placement.jsonl >"$bc5/placement.jsonl" && bcg &&
    cmp -s "$tmp/bc/README.md" "$tmp/bc/README.0" && cmp -s "$tmp/bc/loopy.md" "$tmp/bc/loopy.0" &&
    [ "$(diff "$tmp/bc/games.md" docs/games.md | grep -c '^[<>] | ')" = 2 ] &&
    [ "$(diff "$tmp/bc/games.md" docs/games.md | grep -c "^[<>] | $first | ")" = 2 ] &&
    ok "readme-table: a changed Bagh Chal tier record changes its hand's row in docs/games.md only" ||
    bad "readme-table: a changed Bagh Chal tier record did not change exactly its hand's row: $(diff "$tmp/bc/games.md" docs/games.md | head -n 4)"
block() {
    awk -v b="<!-- $2:begin -->" -v e="<!-- $2:end -->" '$0 == e { p = 0 } p { print } $0 == b { p = 1 }' "$1"
}
block docs/games.md baghchal-sliding >"$tmp/bs.md"
[ "$(grep -c '^| [0-5] | 21[0-5] | ' "$tmp/bs.md")" = 6 ] &&
    ok "docs/games.md's Bagh Chal sliding table has its 6 tiers" ||
    bad "docs/games.md's Bagh Chal sliding table: $(head -n 3 "$tmp/bs.md")"

echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
