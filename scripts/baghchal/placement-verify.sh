#!/bin/sh
# scripts/baghchal/placement-verify.sh [options]: scripts/placement-verify.sh
# for Bagh Chal: the placement tiers of its series checked from disk.
exec "$(dirname "$0")/../placement-verify.sh" baghchal "$@"
