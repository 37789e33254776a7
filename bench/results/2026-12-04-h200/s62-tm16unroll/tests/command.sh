#!/usr/bin/env bash
# Session 62 call 5: the GPU suites of the smallm path on main with TM 16 unrolled by 2 (the working tree: call 4's
# tm16unroll2 with its comment): Smallm.* (every type, group mode, schedule and the M list), SmallmHost*,
# SmallmSanitize*, GemmApi.Programmatic*, then memcheck of SmallmSanitize*. Restricted sm90 instance set.
export PATH=/usr/local/cuda/bin:$PATH
t0=$SECONDS
{ cmake -S . -B build-v -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_TOOLS=OFF -DMIXGEMM_BUILD_PYTHON=OFF &&
  cmake --build build-v -j 16 --target mixgemm_gpu_tests; } > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
grep -E "C751[0-5]|spill stores" $OUT/build.log | grep -v " 0 bytes spill stores" | head -5
timeout 150 build-v/tests/mixgemm_gpu_tests --gtest_filter='Smallm.*:SmallmHost*:SmallmSanitize*:GemmApi.Programmatic*' \
  > $OUT/tests.log 2>&1; echo "tests rc=$? at $((SECONDS - t0)) s"
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" $OUT/tests.log | head
timeout 60 compute-sanitizer --tool memcheck build-v/tests/mixgemm_gpu_tests --gtest_filter='SmallmSanitize*' \
  > $OUT/memcheck.log 2>&1; echo "memcheck rc=$? at $((SECONDS - t0)) s"; grep -E "ERROR SUMMARY|PASSED" $OUT/memcheck.log
gzip -f $OUT/build.log
