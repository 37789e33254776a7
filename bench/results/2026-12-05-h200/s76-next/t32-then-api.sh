#!/usr/bin/env bash
# Session 76: s73-t32/t32.sh (narrow sm90 token tiles; its own README), then, from the same build
# (build-nt, built with t32.patch applied: the tests are the tree's), the GPU tests of session 76's
# host change: GemmApi.NoTokensLaunchesNothing (M = 0 checked, nothing launched, no graph node),
# and the API tests next to it that the restricted type set (f16 / s8 / e4m3) can run.
#   bash bench/results/2026-12-05-h200/s76-next/t32-then-api.sh      (repo root, device; ~9.5 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
DEADLINE=${DEADLINE:-540} bash bench/results/2026-12-05-h200/s73-t32/t32.sh
if [ -x build-nt/tests/mixgemm_gpu_tests ]; then
  timeout 40 build-nt/tests/mixgemm_gpu_tests \
    --gtest_filter='GemmApi.NoTokensLaunchesNothing:GemmApi.RefusesHostPointerAndWritesNothing:GemmApi.RefusesStreamOfAnotherDeviceAndWritesNothing' \
    > "$OUT/api-tests.log" 2>&1
  echo "api tests rc=$? at $((SECONDS - t0)) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED)|^\[       OK|Failure" "$OUT/api-tests.log" | head
fi
