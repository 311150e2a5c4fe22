#!/bin/sh
# scripts/morris/placement-crosscheck.sh [options]: scripts/placement-crosscheck.sh
# for nine men's morris: sampled placement positions valued by its series' tiers and by search.
exec "$(dirname "$0")/../placement-crosscheck.sh" morris "$@"
