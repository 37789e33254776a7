#!/usr/bin/env bash
# Session 42 (s39-check's command, re-run): the final tree's GPU suites that go through the dispatcher and the smallm family (restricted sm90
# set), and compute-sanitizer memcheck / racecheck of the programmatic-dependent W4A8 path (session 38 merged it
# without a sanitizer run) and of the smallm / gemm sanitizer suites.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS
( cmake -S . -B build-t -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF && \
  cmake --build build-t -j 16 --target mixgemm_gpu_tests ) > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
T=build-t/tests/mixgemm_gpu_tests
timeout 200 $T --gtest_filter='GemmApi.*:Smallm.*:SmallmHost.*:ActivationQuantGpu.*:GemmGraph.*:-SmallmTiming.*' > $OUT/tests.log 2>&1
echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' $OUT/tests.log | tr '\n' ' ') at $((SECONDS - t0)) s"
grep -E '^\[  FAILED' $OUT/tests.log | head
F='GemmApi.ProgrammaticDependentLaunchWaitsForItsProducer:ActivationQuantGpu.QuantizeThenGemmMatchesReference:SmallmSanitize.*:GemmSanitize.*'
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter="$F" > $OUT/$tool.log 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)' $OUT/$tool.log | tr '\n' ' ') at $((SECONDS - t0)) s"
done
gzip -f $OUT/*.log
