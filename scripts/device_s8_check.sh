#!/usr/bin/env bash
# Session 8, closing check of main after the cluster split-K merge: build (sm90 f16.u4 + s8.u4
# instances), every GPU suite but the timing report, and MIXGEMM_PRINT_CONFIG's lines for the
# Llama-3-8B layers at M = 1 and 16. $OUT/s8check.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s8check; rm -rf "$R"; mkdir -p "$R"
cp .s8/commit.txt "$R/commit.txt"
( cmake -S . -B build-chk -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 \
  && cmake --build build-chk -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > "$R/build.log" 2>&1
echo "build rc=$? at $((SECONDS-T0)) s"
timeout 200 ./build-chk/tests/mixgemm_gpu_tests --gtest_filter='-SmallmTiming.*' > "$R/gpu-tests.log" 2>&1
echo "gpu tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/gpu-tests.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "^\[  FAILED|Failure" "$R/gpu-tests.log" | head -5
MIXGEMM_PRINT_CONFIG=1 timeout 60 ./build-chk/tools/mixgemm-bench --shapes llama3-8b --m 1,16 --types f16.u4b8.g128 \
  --baselines cublas_fp16 --iters 5 --warmup 1 --verify --quiet --summary-m none > "$R/print-config.txt" 2>&1
echo "print-config rc=$? at $((SECONDS-T0)) s"
grep "^\[mixgemm\]" "$R/print-config.txt" | sort | uniq | head -12
tar czf "$OUT/s8check.tar.gz" -C /tmp s8check
echo "total $((SECONDS-T0)) s"
