#!/usr/bin/env bash
# Session 102: GemmApi.GreenContextStreams against the launcher it guards. Builds the GPU tests, runs the test (must
# pass), then rebuilds with the stream taken out of the launcher's cluster-residency query (the code before session
# 102) and runs it again: the rows with the primary context current must fail (t8_w8_o1 planned for the whole device
# clusters on a green stream that cannot hold its clusters), the green-current rows pass.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s102-next/neg102.sh     (repo root, device)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; t0=$SECONDS
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tee "$OUT/gpu.txt"; cp "$0" "$OUT/command.sh"
echo "${MIXGEMM_GIT_COMMIT:-unknown}" > "$OUT/commit.txt"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > /tmp/build.log 2>&1 &&
  cmake --build build -j "$(nproc)" --target mixgemm_gpu_tests >> /tmp/build.log 2>&1
echo "build rc=$? at $((SECONDS - t0)) s"
T=./build/tests/mixgemm_gpu_tests
timeout 120 $T --gtest_filter='GemmApi.GreenContextStreams' > "$OUT/green-new.log" 2>&1
echo "new launcher rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/green-new.log" | tr '\n' ' ')"
grep -E '^\[ info \] (green|t8_w8_o1)' "$OUT/green-new.log"
sed -i 's/^  cfg.stream = stream;$/  \/\/ cfg.stream = stream;  (negative control: the query before session 102)/' \
  src/kernels/smallm/smallm_launch.cu
grep -n "negative control" src/kernels/smallm/smallm_launch.cu
cmake --build build -j "$(nproc)" --target mixgemm_gpu_tests >> /tmp/build.log 2>&1
echo "rebuild rc=$? at $((SECONDS - t0)) s"
timeout 120 $T --gtest_filter='GemmApi.GreenContextStreams' > "$OUT/green-old.log" 2>&1
echo "old launcher rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/green-old.log" | tr '\n' ' ')"
grep -E '^\[ info \] (green|t8_w8_o1)|Failure|ran cluster' "$OUT/green-old.log" | head -12
echo "total $((SECONDS - t0)) s"
