#!/bin/sh
# scripts/morris/placement-verify.sh [options]: scripts/placement-verify.sh
# for nine men's morris: the placement tiers of its series checked from disk.
exec "$(dirname "$0")/../placement-verify.sh" morris "$@"
