#!/usr/bin/env bash
# Session 106: on a card that is not an H200 (the H200 queue is s103-next/queue103.sh), more random problems of the
# accepted domain through the library's public calls: the device build (no Python package), then every GemmFuzz test
# (gemm(), forced schedules, gemm_partial_sums, gemm_with_activation_quant) from seed FUZZ_SEED (default 301: seeds
# 1..300 ran in sessions 87-105, so these problems are new), in the time left.
#   MIXGEMM_GIT_COMMIT=<commit> [FUZZ_SEED=301 FUZZ_CASES=300 FUZZ_S=300] bash bench/results/2026-12-07-h200/s106-next/fuzz106.sh
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; L=/tmp/s106/logs; rm -rf "$L"; mkdir -p "$L" "$OUT"; t0=$SECONDS
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu" | tee "$L/gpu.txt"
echo "${MIXGEMM_GIT_COMMIT:-unknown}" > "$L/commit.txt"; cp "$0" "$L/command.sh"
LOGS=$L STAGES="build" timeout 300 bash scripts/device_check.sh 2>&1 | tail -2
echo "build done at $((SECONDS - t0)) s"
T=./build/tests/mixgemm_gpu_tests
MIXGEMM_TEST_SEED=${FUZZ_SEED:-301} MIXGEMM_FUZZ_CASES=${FUZZ_CASES:-300} timeout ${FUZZ_S:-300} $T \
  --gtest_filter='GemmFuzz.*' > "$L/fuzz.log" 2>&1
echo "fuzz rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$L/fuzz.log" | tr '\n' ' ')"
grep -E '^\[GemmFuzz\]' "$L/fuzz.log" | head -20
grep -E '^\[ +(OK|FAILED) +\]' "$L/fuzz.log" | head -10
gzip -f "$L/build.log" 2>/dev/null
tar czf "$OUT/fuzz106.tgz" -C "$(dirname "$L")" logs
echo "total $((SECONDS - t0)) s"
