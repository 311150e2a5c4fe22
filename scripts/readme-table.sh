#!/bin/sh
# scripts/readme-table.sh [README [REFERENCE_DIR [BIG_DIR [LOOPY [GAMES]]]]]:
# regenerates the results tables of the front page (README.md), the
# Morris tables of docs/loopy.md and the Bagh Chal tables of docs/games.md
# from the committed results, so that they cannot drift from the data.
# Defaults: README.md, results/reference, results/big, docs/loopy.md,
# docs/games.md.
#
# Contract:
# - Rewrites only the lines between `<!-- results:begin -->` and
#   `<!-- results:end -->` of README, between `<!-- morris:begin -->`
#   and `<!-- morris:end -->` of LOOPY, and between
#   `<!-- baghchal-sliding:begin -->` and its end and
#   `<!-- baghchal-placement:begin -->` and its end of GAMES (each pair
#   once, in that order; otherwise exit 2 and no file is touched). Paths
#   are relative to the repository's root (the current directory); links
#   are written for README at the root and LOOPY in docs/ (copies
#   elsewhere get the same bytes).
# - Reads REFERENCE_DIR/bench.json (the reference run of `make
#   bench-reference`, Google Benchmark's JSON, turned into rows by
#   scripts/bench-rows.jq) and every BIG_DIR/*.json (zero or more: verbatim
#   `bin/solve --json` or `bin/solve-mpi --json` outputs of big solves), each
#   with a BIG_DIR/NAME.txt of `command=...`, `date=...`, `load=...` lines
#   (BIG_DIR/README.md describes the format). A .json without its .txt, or
#   a file jq cannot read, stops the script with exit 2.
# - Deterministic: the same inputs give the same bytes, so a second run
#   changes nothing (a file is rewritten only when its text changes).
# README's tables: the largest strong solves (BIG_DIR, by positions,
# largest first); each solver's time over dfs's on the GAMES below; dfs's
# unhash counts against the GPS solvers' on the same games. A game or
# solver missing from the reference run shows as "-". LOOPY's: nine men's
# morris's sectors (BIG_DIR/morris9s, scripts/morris/sector-table.sh), its
# empty board, and its placement tiers (scripts/morris/placement-table.sh),
# each when its records are there. GAMES': Bagh Chal 5x5's sliding tiers
# (BIG_DIR/baghchal5/first-run, the run that solved them alone:
# scripts/baghchal/sliding-solve.sh -t) and its placement tiers
# (BIG_DIR/baghchal5/placement.jsonl, scripts/baghchal/placement-table.sh).
# Needs: POSIX sh, awk, jq (scripts/deps.sh docs).
set -eu

readme=${1:-README.md}
ref=${2:-results/reference}
big=${3:-results/big}
loopy=${4:-docs/loopy.md}
games=${5:-docs/games.md}
here=$(dirname "$0")

# The games of the time and unhash tables, as bench names spell them
# (game[:variant]): small to large, one per family that has dfs.
GAMES="tictactoe othello:w=4,h=4 hexapawn:w=4,h=4 quarto:n=3,attrs=3 connect4:w=5,h=4,k=4
connect4:w=5,h=5,k=4 connect4:w=6,h=4,k=4"
# The solvers of the time table (solver, or solver/threads:N for tier).
SOLVERS="gps-cached gps tier/threads:1 tier/threads:2 retro sweep dfs-depth"

die() {
    echo "readme-table.sh: $*" >&2
    exit 2
}

[ -f "$readme" ] || die "no file '$readme'"
[ -f "$loopy" ] || die "no file '$loopy'"
[ -f "$games" ] || die "no file '$games'"
[ -f "$ref/bench.json" ] || die "no '$ref/bench.json' (make bench-reference writes it)"

# markers FILE NAME: checks FILE's `<!-- NAME:begin -->` and `<!-- NAME:end -->`
# lines (once each, in that order) and prints their line numbers.
markers() {
    b="<!-- $2:begin -->"
    e="<!-- $2:end -->"
    [ "$(grep -cxF "$b" "$1" || true)" = 1 ] && [ "$(grep -cxF "$e" "$1" || true)" = 1 ] ||
        die "'$1' needs one line '$b' and one '$e'"
    lb=$(grep -nxF "$b" "$1" | cut -d: -f1)
    le=$(grep -nxF "$e" "$1" | cut -d: -f1)
    [ "$lb" -lt "$le" ] || die "'$1': '$b' must come before '$e'"
    echo "$lb $le"
}
readme_lines=$(markers "$readme" results)
loopy_lines=$(markers "$loopy" morris)
markers "$games" baghchal-sliding >/dev/null
markers "$games" baghchal-placement >/dev/null

# docs_link PATH: PATH (relative to the repository's root) as a link from
# a file of docs/, where LOOPY is (absolute paths as they are).
docs_link() {
    case "$1" in /*) echo "$1" ;; *) echo "../$1" ;; esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Rows of the reference run: tab-separated, with a header line.
jq -r --arg fmt tsv -f "$here/bench-rows.jq" "$ref/bench.json" >"$tmp/rows.tsv" ||
    die "cannot read '$ref/bench.json'"
jq -r '.context | [.run // "?", .commit // "?", .machine // "?", .date // "?",
       ((.load_avg // [])[0] // "?")] | @tsv' "$ref/bench.json" >"$tmp/context.tsv" ||
    die "cannot read the context of '$ref/bench.json'"

# Big solves: one tab-separated line each (file name first), sorted below.
: >"$tmp/big.tsv"
for j in "$big"/*.json; do
    [ -e "$j" ] || continue
    name=$(basename "$j" .json)
    txt="$big/$name.txt"
    [ -f "$txt" ] || die "'$j' has no '$txt' (command=, date=, load= lines)"
    cmd=$(sed -n 's/^command=//p' "$txt" | head -n 1)
    date=$(sed -n 's/^date=//p' "$txt" | head -n 1)
    load=$(sed -n 's/^load=//p' "$txt" | head -n 1)
    # a solve in segments: its JSON's wall and peak are the last segment's
    nseg=$(grep -c '^segment=start' "$txt" || true)
    [ -n "$cmd" ] && [ -n "$date" ] || die "'$txt' needs command= and date= lines"
    # The solver as the command names it (with its options), else the JSON's.
    solver=$(printf '%s\n' "$cmd" | sed -n 's/.*--solver[ =]\([^ ]*\).*/\1/p')
    jq -r --arg name "$name" --arg solver "$solver" --arg date "$date" --arg load "$load" \
        --arg nseg "$nseg" '
        [$name,
         .game + (if (.variant // "") != "" then ":" + .variant else "" end),
         (if $solver != "" then $solver else .solver end),
         ((.solver_stats.mpi_ranks // 0) | tostring), ((.threads // 0) | tostring),
         # a solve without remoteness (symbolic:remoteness=0) reports 0: no "in 0"
         .value, (if .solver_stats.remoteness == 0 then "" else (.remoteness // "") | tostring end),
         ((.positions // "") | tostring),
         ((.wall_seconds // "") | tostring), ((.peak_bytes // "") | tostring),
         ((.peak_rss_bytes // "") | tostring), $date, $load, $nseg] | @tsv' "$j" \
        >>"$tmp/big.tsv" || die "cannot read '$j'"
done

{
    awk -F'\t' -v games="$GAMES" -v solvers="$SOLVERS" -v big="$big" \
        -v ctxfile="$tmp/context.tsv" -v bigfile="$tmp/big.tsv" '
    function comma(n,   s, neg) {
        if (n == "") return "-"
        s = sprintf("%.0f", n); neg = ""
        if (substr(s, 1, 1) == "-") { neg = "-"; s = substr(s, 2) }
        while (length(s) > 3 && match(s, /[0-9][0-9][0-9][0-9]($|,)/))
            s = substr(s, 1, RSTART) "," substr(s, RSTART + 1)
        return neg s
    }
    function secs(t) {
        if (t == "") return "-"
        if (t >= 100) return sprintf("%.0f s", t)
        if (t >= 1) return sprintf("%.1f s", t)
        if (t >= 1e-4) return sprintf("%.3g ms", t * 1000)
        return sprintf("%.3g us", t * 1e6)
    }
    function bytes(b) {
        if (b == "" || b == 0) return "-"
        if (b >= 2^30) return sprintf("%.2f GiB", b / 2^30)
        if (b >= 2^20) return sprintf("%.1f MiB", b / 2^20)
        return sprintf("%.0f KiB", b / 2^10)
    }
    function ratio(t, d) {
        if (t == "" || d == "" || d == 0) return "-"
        return sprintf("%.2f", t / d)
    }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
        spec = $col["game"] ($col["variant"] != "" ? ":" $col["variant"] : "")
        key = $col["solver"] ($col["threads"] != "" ? "/threads:" $col["threads"] : "")
        if ($col["error"] != "") next
        t[spec, key] = $col["time_s"]; u[spec, key] = $col["unhash"]
        h[spec, key] = $col["hash"]
        if (key == "dfs") p[spec] = $col["positions"] # dfs stores every reached position
        # tier without threads in its name ran on one thread
        if (key == "tier") t[spec, "tier/threads:1"] = $col["time_s"]
    }
    END {
        getline ctx < ctxfile; split(ctx, c, "\t")
        print "Generated by `scripts/readme-table.sh` (`make readme-table`) from"
        print "`results/reference/bench.json` (run " c[1] ", commit `" c[2] "`,"
        printf "%s, load average %s at the start)\n", c[3], (c[5] == "?" ? "?" : sprintf("%.2f", c[5]))
        print "and `results/big/`; edit those, not this."
        print ""
        print "**The largest strong solves** (`results/big/`: one `bin/solve --json` or"
        print "`bin/solve-mpi --json` output each; the link gives the command, its date and"
        print "the 1-minute load before / after):"
        print ""
        n = 0
        while ((getline line < bigfile) > 0) { n++; bl[n] = line }
        if (n == 0) {
            print "No big solve recorded yet (`results/big/` has no `.json`)."
        } else {
            # largest positions first, then by name (a stable, total order)
            for (i = 2; i <= n; i++) for (j = i; j > 1; j--) {
                split(bl[j], a, "\t"); split(bl[j - 1], b, "\t")
                if (a[8] + 0 > b[8] + 0 || (a[8] + 0 == b[8] + 0 && a[1] < b[1])) {
                    tmpl = bl[j]; bl[j] = bl[j - 1]; bl[j - 1] = tmpl
                } else break
            }
            print "| game | solver | threads | value | positions | wall | peak (jemalloc / RSS) | run |"
            print "|---|---|---|---|---|---|---|---|"
            for (i = 1; i <= n; i++) {
                split(bl[i], a, "\t")
                thr = a[5] + 0 > 0 ? a[5] : "-"
                if (a[4] + 0 > 1) thr = a[4] " ranks x " a[5]
                val = a[6] (a[7] != "" && a[6] != "draw" ? " in " a[7] : "")
                # load: the 1-minute averages before / after
                ld = "-"
                if (a[13] != "") {
                    nl = split(a[13], lp, " / "); split(lp[1], l0, " "); ld = l0[1]
                    if (nl > 1) { split(lp[2], l1, " "); ld = ld " / " l1[1] }
                }
                # a solve in segments: wall and peak are those of its last segment
                seg = a[14] + 0 > 1 ? "; wall and peak: the last of " a[14] " segments" : ""
                printf "| `%s` | `%s` | %s | %s | %s | %s | %s / %s | [%s](%s/%s.txt) (%s) |\n",
                    a[2], a[3], thr, val, comma(a[8]), secs(a[9]), bytes(a[10]), bytes(a[11]),
                    a[12], big, a[1], "load " ld seg
            }
        }
        ng = split(games, g, /[ \n]+/); ns = split(solvers, s, " ")
        print ""
        print "**Each solver against `dfs`** (the reference run: time of one solve"
        print "over `dfs`'"'"'s; below 1 is faster; `-`: the solver does not run that game):"
        print ""
        hdr = "| game | positions | `dfs` |"; sep = "|---|---|---|"
        for (k = 1; k <= ns; k++) {
            name = "`" s[k] "`"
            if (split(s[k], st, "/threads:") == 2) name = "`" st[1] "` " st[2] " thr"
            hdr = hdr " " name " |"; sep = sep "---|"
        }
        print hdr; print sep
        for (i = 1; i <= ng; i++) {
            if (g[i] == "" || !((g[i], "dfs") in t)) continue
            d = t[g[i], "dfs"]
            line = "| `" g[i] "` | " comma(p[g[i]]) " | " secs(d) " |"
            for (k = 1; k <= ns; k++) line = line " " ratio(t[g[i], s[k]], d) " |"
            print line
        }
        print ""
        print "**Unhash calls, `dfs` against GPS** (the GPS document'"'"'s question, from the"
        print "counting build; hash: `dfs`'"'"'s hash calls, one per move examined):"
        print ""
        print "| game | positions | hash | `dfs` unhash | `gps` unhash | `gps-cached` unhash |"
        print "|---|---|---|---|---|---|"
        for (i = 1; i <= ng; i++) {
            if (g[i] == "" || !((g[i], "dfs") in t)) continue
            printf "| `%s` | %s | %s | %s | %s | %s |\n", g[i], comma(p[g[i]]),
                comma(h[g[i], "dfs"]), comma(u[g[i], "dfs"]),
                ((g[i], "gps") in u) ? comma(u[g[i], "gps"]) : "-",
                ((g[i], "gps-cached") in u) ? comma(u[g[i], "gps-cached"]) : "-"
        }
    }' "$tmp/rows.tsv"
} >"$tmp/table.md" || die "cannot build the tables"

{
    # Nine men's morris sector by sector (BIG_DIR/morris9s: the records of
    # scripts/morris/sector-solve.sh -v sym,swap), smallest sector first.
    m9="$big/morris9s"
    if ls "$m9"/sector-*.json >/dev/null 2>&1; then
        sectors=$(for j in "$m9"/sector-*.json; do
            s=${j##*/sector-}
            # a run still going has no .txt yet: left out
            [ -f "${j%.json}.txt" ] || continue
            printf '%s %s\n' "$(jq .solver_stats.sector_positions "$j")" "${s%.json}"
        done | sort -k1,1n -k2,2 | cut -d' ' -f2)
        echo
        echo "**Nine men's morris, sector by sector** (\`$m9/\`: each mid- and endgame"
        echo "sector W-B solved by \`scripts/morris/sector-solve.sh -v sym,swap\` with its"
        echo "child sectors loaded from disk; positions canonical under the 16 symmetries"
        echo "and the colour swap, Gasser's 28 sectors: W-B, W > B, holds B-W's positions"
        echo "too (either side to move), W-W white to move only; the sector's own counts,"
        echo "then the whole run's; wall and CPU of the run, 2 threads; disk: the"
        echo "sector's compressed tier file):"
        echo
        # shellcheck disable=SC2086 # one word per sector
        "$here/morris/sector-table.sh" "$m9" $sectors
    fi
    # Its empty board (BIG_DIR/morris9s/opening: scripts/morris/opening.sh),
    # when the search down to those sectors has run.
    if [ -f "$m9/opening.json" ] && [ -f "$m9/opening.txt" ]; then
        date=$(sed -n 's/^date=//p' "$m9/opening.txt" | sed 's/T/ /; s/:[0-9]*Z$//')
        before=$(sed -n 's/^load_before=//p' "$m9/opening.txt" | cut -d' ' -f1)
        after=$(sed -n 's/^load_after=//p' "$m9/opening.txt" | cut -d' ' -f1)
        cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.0f", s }' \
            "$m9/opening.err")
        echo
        jq -r --arg date "$date" --arg before "$before" --arg after "$after" --arg cpu "$cpu" \
            --arg rec "$(docs_link "$m9/opening.txt")" '
            def commas: tostring | explode | reverse | [range(0; length) as $i | .[$i] |
                [.] | implode | if $i > 0 and $i % 3 == 0 then . + "," else . end] | reverse | join("");
            "**Its empty board** (`\($date)` UTC, load \($before) / \($after);"
            + " `scripts/morris/opening.sh`, [record](\($rec))): **"
            + .value + "**, by the search from the empty board through the placement phase"
            + " down to the sectors above (`search`, values only): "
            + (.solver_stats.search_nodes | commas) + " positions searched, "
            + (.solver_stats.db_leaves | commas) + " sector positions read, "
            + (.wall_seconds | floor | tostring) + " s wall, \($cpu) s CPU, "
            + ((.peak_bytes / 1073741824 * 100 | floor) / 100 | tostring) + " GiB peak (jemalloc), "
            + ((.peak_rss_bytes / 1073741824 * 100 | floor) / 100 | tostring) + " GiB peak RSS."' \
            "$m9/opening.json"
    fi
    # Its placement (opening) tiers (BIG_DIR/morris9s/placement.jsonl: one
    # line a tier, scripts/morris/placement-solve.sh), when any is solved.
    if [ -s "$m9/placement.jsonl" ]; then
        echo
        echo "**Its placement tiers, strongly** (\`$m9/placement.jsonl\`: each placement tier"
        echo "solved by \`scripts/morris/placement-solve.sh\` over its child tiers on disk, one"
        echo "line a tier; a row a hand count, in the order they are solved; Burnside's counts"
        echo "from \`scripts/morris/burnside.awk\`):"
        echo
        "$here/morris/placement-table.sh" "$m9/placement.jsonl"
    fi
    ls "$m9"/sector-*.json "$m9/opening.json" "$m9/placement.jsonl" >/dev/null 2>&1 ||
        printf '\nNo nine men'"'"'s morris series recorded (`%s/` has no records).\n' "$m9"
} >"$tmp/morris.md" || die "cannot build the Morris tables"
# Each table's caption opens with a blank line; the first follows the marker.
sed -i '1{/^$/d}' "$tmp/morris.md"

# Bagh Chal 5x5's series (BIG_DIR/baghchal5): its sliding tiers, from the
# run that solved them alone, and its placement tiers.
bc5="$big/baghchal5"
if ls "$bc5"/first-run/slide-*.json >/dev/null 2>&1; then
    sh "$here/baghchal/sliding-solve.sh" -t -o "$bc5/first-run" >"$tmp/bc-sliding.md" ||
        die "cannot build the Bagh Chal sliding table"
else
    printf 'No Bagh Chal sliding tiers recorded (`%s/first-run/` has no records).\n' "$bc5" >"$tmp/bc-sliding.md"
fi
if [ -s "$bc5/placement.jsonl" ]; then
    sh "$here/baghchal/placement-table.sh" "$bc5/placement.jsonl" >"$tmp/bc-placement.md" ||
        die "cannot build the Bagh Chal placement table"
else
    printf 'No Bagh Chal placement tiers recorded (`%s/placement.jsonl` is missing).\n' "$bc5" >"$tmp/bc-placement.md"
fi

# splice FILE LINES TEXT OUT: FILE with the lines between its markers
# (LINES: "begin end") replaced by TEXT, into OUT.
splice() {
    {
        sed -n "1,${2% *}p" "$1"
        cat "$3"
        sed -n "${2#* },\$p" "$1"
    } >"$4"
}
splice "$readme" "$readme_lines" "$tmp/table.md" "$tmp/readme.new"
splice "$loopy" "$loopy_lines" "$tmp/morris.md" "$tmp/loopy.new"
# GAMES' two blocks one after the other, each located in the text so far
splice "$games" "$(markers "$games" baghchal-sliding)" "$tmp/bc-sliding.md" "$tmp/games.1"
splice "$tmp/games.1" "$(markers "$tmp/games.1" baghchal-placement)" "$tmp/bc-placement.md" "$tmp/games.new"
# All are written only once all are built.
for f in readme loopy games; do
    eval "file=\$$f"
    if cmp -s "$tmp/$f.new" "$file"; then
        echo "readme-table.sh: $file is up to date"
    else
        cat "$tmp/$f.new" >"$file"
        echo "readme-table.sh: $file rewritten"
    fi
done
