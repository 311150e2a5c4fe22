#!/bin/sh
# scripts/deps.sh GROUP...: make sure the Debian packages a target needs are
# installed. As root, installs the missing ones with apt-get; otherwise
# prints the exact command to run and fails.
#
# Groups: build (bin/solve), test (make test), bench (make bench),
#         format (make format), mpi (distributed solves),
#         compare (make bench-compare: Google Benchmark's compare.py),
#         docs (make readme-table: the README's results tables),
#         fuzz (make fuzz and make test: clang, libFuzzer and its sanitizer
#         runtimes, LLVM's OpenMP for clang -fopenmp).
set -eu
# One installer at a time: make's parallel jobs may call this for several
# groups at once, and apt-get refuses a second run beside the first.
if [ -z "${DEPS_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
    DEPS_LOCKED=1 exec flock "${TMPDIR:-/tmp}/gamesman-deps.lock" "$0" "$@"
fi

pkgs_for() {
    case "$1" in
    build) echo "gcc make libc6-dev libjemalloc-dev libbdd-dev libzstd-dev" ;;
    test) echo "libcmocka-dev jq time" ;; # time: /usr/bin/time, scripts/locked-run.sh (tests/cli.sh)
    bench) echo "g++ libbenchmark-dev gnuplot-nox jq git" ;;
    compare) echo "libbenchmark-tools python3 python3-scipy python3-numpy" ;;
    format) echo "clang-format" ;;
    docs) echo "jq" ;;
    mpi) echo "libopenmpi-dev openmpi-bin" ;;
    fuzz) echo "clang libclang-rt-dev libomp-dev" ;;
    *) echo "deps.sh: unknown group '$1'" >&2; exit 2 ;;
    esac
}

missing=""
for group in "$@"; do
    for p in $(pkgs_for "$group"); do
        status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
        if [ "$status" != "installed" ]; then
            case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac
        fi
    done
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" -ne 0 ]; then
    echo "Missing Debian packages:$missing" >&2
    echo "Install them with:" >&2
    echo "  sudo apt-get update && sudo $cmd" >&2
    exit 1
fi
echo "Installing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
