# scripts/morris/common.sh: the shared library of the Morris series
# (scripts/morris/: sector-solve.sh, placement-solve.sh, opening.sh,
# sectors.sh, sector-fit.sh, placement-verify.sh, placement-crosscheck.sh
# source it): the options they share, the board's size, and the tiers by
# name.
#
#   morris_opt LETTER ARG    -n N (3, 6 or 9), -v VARIANT_OPTIONS, -d DB,
#                            -o OUT, -m MEMORY: sets n, vopts, db, out, mem;
#                            returns 1 for another letter (the caller's own)
#   morris_need_db           after the options: exits 2 unless a database
#                            directory was given (-d DB, or MORRIS_DB=DB in
#                            the environment: there is no default, since
#                            the series' databases take gigabytes)
#   morris_points N          the board's points (9, 16 or 24); exits 2
#                            with a message naming the script otherwise
#   morris_placement_records after the options: spec (the variant) and
#                            records (OUT/placement.jsonl, the placement
#                            series' records); exits 2 when there are none
#   morris_link_db DIR T     DIR made anew holding hard links to the DB
#                            tier files named on standard input (DB's
#                            files untouched; DIR on DB's file system),
#                            and its manifest, written by a tier:sector=T
#                            run over tier T there (it solves nothing)
#   morris_tiers             after spec is set: the variant's tiers, one
#                            line each (number, name, slots, loopy, file,
#                            children: bin/tier-plan SPEC --list), into
#                            tier_list; the tier-plan is TIER_PLAN, else
#                            bin/tier-plan or build/release/bin/tier-plan
#                            (exits 2 when there is none)
#   morris_tier NAME [FIELD] the tier named NAME ("9-7", a movement sector
#                            by stones on the board, white-black;
#                            "5-5-hand0-1", a placement tier, with stones
#                            in hand, white-black; games/morris.c names
#                            them), or numbered NAME, or whose file is
#                            NAME (tier-0575.gmdb): its number, or field
#                            FIELD of its line (2 name, 3 slots, 5 file);
#                            exits 2 naming the script when the variant
#                            has no such tier. So no script re-derives
#                            games/morris.c's tier numbering or the tier
#                            files' names
#   morris_series_defaults   the defaults of the series with the colour
#                            swap (placement-solve.sh, placement-verify.sh,
#                            placement-crosscheck.sh, opening.sh):
#                            n=9, sym,swap, DB $MORRIS_DB (else -d is
#                            needed), OUT results/big/morris9s, 20G, and
#                            bin: $BIN, or the timing build
#
# Paths are as given, relative to the current directory: run the scripts
# from the repository's root (the OUT and BIN defaults are relative to it).
morris_opt() {
    case "$1" in
    n) n=$2 ;;
    v) vopts=$2 ;;
    d) db=$2 ;;
    o) out=$2 ;;
    m) mem=$2 ;;
    *) return 1 ;;
    esac
}

morris_points() {
    case "$1" in
    3) echo 9 ;;
    6) echo 16 ;;
    9) echo 24 ;;
    *)
        echo "$(basename "$0"): n must be 3, 6 or 9" >&2
        exit 2
        ;;
    esac
}

morris_need_db() {
    [ -n "$db" ] || {
        echo "$(basename "$0"): needs the database directory: -d DB, or MORRIS_DB=DB in the environment" >&2
        exit 2
    }
}

morris_series_defaults() {
    n=9
    vopts=sym,swap
    db=${MORRIS_DB:-}
    out=results/big/morris9s
    mem=20G
    bin=${BIN:-build/timing/bin/solve}
}

morris_placement_records() {
    morris_points "$n" >/dev/null
    spec="morris:n=$n${vopts:+,$vopts}"
    records="$out/placement.jsonl"
    [ -s "$records" ] || {
        echo "$(basename "$0"): no records in $records" >&2
        exit 2
    }
}

morris_link_db() {
    rm -rf "$1"
    mkdir -p "$1"
    while read -r f; do ln "$db/$f" "$1/$f"; done
    "$bin" "$spec" --solver "tier:sector=$2" --threads 2 --max-memory "$mem" --db "$1" >/dev/null
}

morris_tiers() {
    tier_plan=${TIER_PLAN:-}
    if [ -z "$tier_plan" ]; then
        for p in bin/tier-plan build/release/bin/tier-plan; do
            if [ -x "$p" ]; then
                tier_plan=$p
                break
            fi
        done
    fi
    if [ -z "$tier_plan" ] || [ ! -x "$tier_plan" ]; then
        echo "$(basename "$0"): needs bin/tier-plan for the tiers' names (make bin/tier-plan, or TIER_PLAN=PATH)" >&2
        exit 2
    fi
    tier_list=$("$tier_plan" "$spec" --list)
}

morris_tier() {
    printf '%s\n' "$tier_list" | awk -v name="$1" -v f="${2:-1}" '
        !/^#/ && ($1 == name || $2 == name || $5 == name) { print $f; found = 1 }
        END { exit !found }' || {
        echo "$(basename "$0"): $spec has no tier named '$1' ($tier_plan $spec --list lists them)" >&2
        exit 2
    }
}
