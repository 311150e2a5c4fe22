#!/bin/sh
# scripts/morris/placement-halfway.sh [options]: scripts/placement-halfway.sh
# for nine men's morris: the initial position by search down to its series' tiers with at most H in hand.
exec "$(dirname "$0")/../placement-halfway.sh" morris "$@"
