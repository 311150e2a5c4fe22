#!/bin/sh
# scripts/baghchal/placement-halfway.sh [options]: scripts/placement-halfway.sh
# for Bagh Chal: the initial position by search down to its series' tiers with at most H in hand.
exec "$(dirname "$0")/../placement-halfway.sh" baghchal "$@"
