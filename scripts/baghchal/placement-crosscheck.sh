#!/bin/sh
# scripts/baghchal/placement-crosscheck.sh [options]: scripts/placement-crosscheck.sh
# for Bagh Chal: sampled placement positions valued by its series' tiers and by search.
exec "$(dirname "$0")/../placement-crosscheck.sh" baghchal "$@"
