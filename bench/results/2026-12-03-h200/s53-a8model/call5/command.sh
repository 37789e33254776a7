#!/usr/bin/env bash
# Session 53 call 5: this tree (main + the 8-bit 256-token block times, tests moved to 59392 x 1024) built with
# f16 / bf16 / s8 / e4m3 x u4 sm90 instances; the GemmApi GPU suite (row split tests on their new shape) and the
# Dispatch / Sm90Heuristic CPU tests of the same build.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; T0=$SECONDS
cmake -S . -B build-chk -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
  -DMIXGEMM_BUILD_PYTHON=OFF > $OUT/build.log 2>&1 &&
  cmake --build build-chk -j 16 --target mixgemm_gpu_tests mixgemm_cpu_tests >> $OUT/build.log 2>&1 || { echo BUILD FAILED; tail -20 $OUT/build.log; exit 2; }
echo "build done at $((SECONDS-T0)) s"
timeout 300 build-chk/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.*' > $OUT/gpu-gemmapi.log 2>&1
echo "GemmApi rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/gpu-gemmapi.log | tr '\n' ' ') at $((SECONDS-T0)) s"
build-chk/tests/mixgemm_cpu_tests --gtest_filter='Dispatch.*:Sm90Heuristic.*' > $OUT/cpu-heuristic.log 2>&1
echo "cpu rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/cpu-heuristic.log | tr '\n' ' ')"
grep -E "RowSplit|FAILED" $OUT/gpu-gemmapi.log | head -20
gzip -f $OUT/build.log
