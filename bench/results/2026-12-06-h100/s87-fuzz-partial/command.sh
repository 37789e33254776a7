#!/usr/bin/env bash
# Session 87: build the GPU tests (every sm90 instance) and run GemmFuzz wide: FUZZ_CASES (default 600) random problems
# from seed FUZZ_SEED (default 5000). Logs in $OUT/fuzz.tgz.   bash .../s87-next/fuzz_wide.sh   (repo root; ~4-5 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
L=/tmp/s87-fuzz/logs; rm -rf "$L"; mkdir -p "$L"
t0=$SECONDS
echo "${MIXGEMM_GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null)}" > "$L/commit.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$L/gpu.txt"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=OFF > "$L/build.log" 2>&1 &&
  cmake --build build -j "$(nproc)" --target mixgemm_gpu_tests >> "$L/build.log" 2>&1
echo "build rc=$? at $((SECONDS - t0)) s"
MIXGEMM_TEST_SEED=${FUZZ_SEED:-5000} MIXGEMM_FUZZ_CASES=${FUZZ_CASES:-600} timeout ${FUZZ_TIMEOUT:-300} \
  ./build/tests/mixgemm_gpu_tests --gtest_filter='GemmFuzz.*' > "$L/fuzz.log" 2>&1
echo "fuzz rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$L/fuzz.log" | tr '\n' ' ')"
grep -E "^\[GemmFuzz\]|Failure|error" "$L/fuzz.log" | head -40
tar czf "$OUT/fuzz.tgz" -C "$(dirname "$L")" logs
