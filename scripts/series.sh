# scripts/series.sh: the shared library of the tier-by-tier series of
# nine men's morris (scripts/morris/common.sh, which builds on it) and
# Bagh Chal (scripts/baghchal/), sourced by their scripts and by the
# checks of their placement tiers that serve both games
# (scripts/placement-verify.sh, scripts/placement-crosscheck.sh): the
# options they share, the database directory they need, and the tiers by
# name (bin/tier-plan SPEC --list), so that no script re-derives a game's
# tier numbering or the tier files' names.
#
#   series_defaults GAME   the defaults of GAME's placement series (morris:
#                          n=9, sym,swap, DB $MORRIS_DB, OUT
#                          results/big/morris9s, 20G; baghchal: n=5, sym,
#                          DB $BAGHCHAL_DB, OUT results/big/baghchal5,
#                          16G), and bin: $BIN, or the timing build; and
#                          in_hand_awk, an awk expression of a position's
#                          text split at ':' (awk -F:), its pieces in hand
#                          (Morris's "---------:3:3:w": $2 + $3; Bagh
#                          Chal's "T--T--------T--T:G:12:0": $3); pieces and
#                          later, the words for what is in hand (stones,
#                          goats) and for the tiers after the placement
#                          (sectors, sliding tiers); exits 2 for another
#                          game
#   series_opt LETTER ARG  -n N, -v VARIANT_OPTIONS, -d DB, -o OUT, -m
#                          MEMORY: sets n, vopts, db, out, mem; returns 1
#                          for another letter (the caller's own)
#   series_need_db         after the options: exits 2 unless a database
#                          directory was given (-d DB, or the game's
#                          variable, $dbvar: there is no default, since
#                          the series' databases take gigabytes)
#   series_records         after the options: spec (GAME:n=N,VARIANT) and
#                          records (OUT/placement.jsonl, the placement
#                          series' records); exits 2 when there are none
#   series_tiers           after spec is set: the variant's tiers, one
#                          line each (number, name, slots, loopy, file,
#                          children), into tier_list; the tier-plan is
#                          TIER_PLAN, else the newer of bin/tier-plan and
#                          build/release/bin/tier-plan (exits 2 when there
#                          is none)
#   series_tier NAME [F]   the tier named NAME, or numbered NAME, or whose
#                          file is NAME (tier-0575.gmdb): its number, or
#                          field F of its line (2 name, 3 slots, 5 file,
#                          6 children); exits 2 naming the script when the
#                          variant has no such tier
#   series_link_db DIR T   DIR made anew holding hard links to the DB tier
#                          files named on standard input (DB's files
#                          untouched; DIR on DB's file system), and its
#                          manifest, written by a tier:sector=T run over
#                          tier T there (it solves nothing)
#   series_split_db D      after series_records and series_tiers: D/placement,
#                          the files of the tiers the series recorded, and
#                          D/later, DB's other tier files (the phase after
#                          the placement), each sorted
#   SERIES_IN_HAND         a jq function, `in_hand`: the pieces in hand of
#                          a record's placement tier, from its name (the
#                          numbers after "hand": "5-5-hand0-1", Morris's,
#                          1; "hand12-cap0-G", Bagh Chal's, 12)
#
# Paths are as given, relative to the current directory: run the scripts
# from the repository's root (the OUT and BIN defaults are relative to it).
SERIES_IN_HAND='def in_hand: .name | sub("^.*hand"; "") | split("-")
    | map(select(test("^[0-9]+$")) | tonumber) | add;'

series_defaults() {
    game=$1
    case "$game" in
    morris)
        n=9 vopts=sym,swap dbvar=MORRIS_DB db=${MORRIS_DB:-} out=results/big/morris9s mem=20G
        in_hand_awk='$2 + $3' pieces=stones later=sectors
        ;;
    baghchal)
        n=5 vopts=sym dbvar=BAGHCHAL_DB db=${BAGHCHAL_DB:-} out=results/big/baghchal5 mem=16G
        in_hand_awk='$3' pieces=goats later='sliding tiers'
        ;;
    *)
        echo "$(basename "$0"): the game is morris or baghchal, not '$game'" >&2
        exit 2
        ;;
    esac
    bin=${BIN:-build/timing/bin/solve}
}

series_opt() {
    case "$1" in
    n) n=$2 ;;
    v) vopts=$2 ;;
    d) db=$2 ;;
    o) out=$2 ;;
    m) mem=$2 ;;
    *) return 1 ;;
    esac
}

series_need_db() {
    [ -n "$db" ] || {
        echo "$(basename "$0"): needs the database directory: -d DB, or $dbvar=DB in the environment" >&2
        exit 2
    }
}

series_records() {
    spec="$game:n=$n${vopts:+,$vopts}"
    records="$out/placement.jsonl"
    [ -s "$records" ] || {
        echo "$(basename "$0"): no records in $records" >&2
        exit 2
    }
}

series_tiers() {
    # the newer of the two, so that a stale copy of bin/tier-plan (made
    # only by `make solve-mpi`) is not read after the release build moved on
    tier_plan=${TIER_PLAN:-$(ls -t bin/tier-plan build/release/bin/tier-plan 2>/dev/null | head -n 1)}
    if [ -z "$tier_plan" ] || [ ! -x "$tier_plan" ]; then
        echo "$(basename "$0"): needs bin/tier-plan for the tiers' names (make bin/tier-plan, or TIER_PLAN=PATH)" >&2
        exit 2
    fi
    tier_list=$("$tier_plan" "$spec" --list)
}

series_tier() {
    printf '%s\n' "$tier_list" | awk -v name="$1" -v f="${2:-1}" '
        !/^#/ && ($1 == name || $2 == name || $5 == name) { print $f; found = 1 }
        END { exit !found }' || {
        echo "$(basename "$0"): $spec has no tier named '$1' ($tier_plan $spec --list lists them)" >&2
        exit 2
    }
}

series_split_db() {
    jq -r '.tier' "$records" | while read -r t; do series_tier "$t" 5; done | sort >"$1/placement"
    (cd "$db" && ls tier-*.gmdb) | sort | comm -23 - "$1/placement" >"$1/later"
}

series_link_db() {
    rm -rf "$1"
    mkdir -p "$1"
    while read -r f; do ln "$db/$f" "$1/$f"; done
    "$bin" "$spec" --solver "tier:sector=$2" --threads 2 --max-memory "$mem" --db "$1" >/dev/null
}
