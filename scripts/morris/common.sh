# scripts/morris/common.sh: the shared library of the Morris series
# (scripts/morris/: sector-solve.sh, placement-solve.sh, opening.sh,
# sectors.sh, sector-fit.sh source it): the library of both games' series
# (scripts/series.sh, whose helpers these are, named for Morris) and the
# board's size.
#
#   morris_opt LETTER ARG    series_opt: -n N (3, 6 or 9), -v
#                            VARIANT_OPTIONS, -d DB, -o OUT, -m MEMORY
#   morris_need_db           series_need_db: exits 2 unless -d DB, or
#                            MORRIS_DB=DB in the environment, was given
#   morris_points N          the board's points (9, 16 or 24); exits 2
#                            with a message naming the script otherwise
#   morris_placement_records series_records, n checked: spec and records
#   morris_link_db DIR T     series_link_db
#   morris_tiers             series_tiers: tier_list
#   morris_tier NAME [FIELD] series_tier: the tier named NAME ("9-7", a
#                            movement sector by stones on the board,
#                            white-black; "5-5-hand0-1", a placement tier,
#                            with stones in hand, white-black; games/morris.c
#                            names them), or numbered NAME, or whose file
#                            is NAME
#   morris_series_defaults   series_defaults morris: the defaults of the
#                            series with the colour swap (placement-solve.sh,
#                            placement-verify.sh, placement-crosscheck.sh,
#                            opening.sh): n=9, sym,swap, DB $MORRIS_DB (else
#                            -d is needed), OUT results/big/morris9s, 20G,
#                            and bin: $BIN, or the timing build
#
# Paths are as given, relative to the current directory: run the scripts
# from the repository's root (the OUT and BIN defaults are relative to it).
. "$(dirname "$0")/../series.sh"
game=morris
dbvar=MORRIS_DB

morris_opt() { series_opt "$@"; }
morris_need_db() { series_need_db; }
morris_series_defaults() { series_defaults morris; }
morris_link_db() { series_link_db "$@"; }
morris_tiers() { series_tiers; }
morris_tier() { series_tier "$@"; }

morris_placement_records() {
    morris_points "$n" >/dev/null
    series_records
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
