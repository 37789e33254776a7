#!/usr/bin/env bash
# Session 49, call 3: the stream-K partial sums after call 2's fix (a partial-sum launch keeps its partition
# even where the schedule fits fewer CTAs per SM than it assumes). (1) the GPU suites + memcheck + racecheck
# (test binary built here from .s49/commit.txt + call3.diff), (2) the compiled Llama-3-8B step at batch 1,
# fp16 / w4a16 / w4a16-ps (every decode GEMM on partial sums, lm_head included), the package built during (1).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
(CMAKE_BUILD_PARALLEL_LEVEL=14 python3 -m pip install --no-build-isolation --no-deps -v --target /tmp/py-s49 \
    --config-settings=build-dir=$R/build-s49pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
    --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk . > $OUT/install.log 2>&1;
 echo $? > /tmp/install.rc) &
./.s49/mixgemm_gpu_tests --gtest_filter='Smallm*:GemmApi.*:-SmallmTiming.*' > $OUT/tests.log 2>&1
echo "gtest rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED) ' $OUT/tests.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \]|Failure" -A2 $OUT/tests.log | head -12
grep -E "partial sums checked" $OUT/tests.log | sed 's/ N=.*seed=[0-9]*:/:/' | sort | uniq -c | head -12
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool ./.s49/mixgemm_gpu_tests --gtest_filter='SmallmSanitize.*' > $OUT/$tool.log 2>&1
  echo "$tool rc=$? at $((SECONDS - t0)) s: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/$tool.log | tr '\n' ' ')"
done
wait
echo "install rc=$(cat /tmp/install.rc) at $((SECONDS - t0)) s"
(cd /tmp && PYTHONPATH=/tmp/py-s49 timeout $((560 - SECONDS + t0)) python3 $R/examples/llama_decode.py --models llama3-8b \
  --batches 1 --variants fp16,w4a16,w4a16-ps --mode compile --new-tokens 32 --out $OUT/e2e.csv > $OUT/e2e.log 2>&1;
 echo "e2e rc=$? at $((SECONDS - t0)) s")
gzip -f $OUT/*.log
cut -d, -f1-12 $OUT/e2e.csv 2>/dev/null
