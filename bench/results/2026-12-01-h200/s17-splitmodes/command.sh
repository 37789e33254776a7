#!/usr/bin/env bash
# session 17 call 7: split-K vs stream-K vs the heuristic's split, f16 x u4b8 g128, M = 256..2048 (Sm90Timing report)
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/s17c7; rm -rf $R; mkdir -p $R
(cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build -j 16 --target mixgemm_gpu_tests) > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build done $SECONDS s"
MIXGEMM_SM90_TIMING=1 MIXGEMM_SM90_TIMING_MODES=1 MIXGEMM_SM90_TIMING_MS=256,512,1024,2048 timeout 240 \
  build/tests/mixgemm_gpu_tests --gtest_filter='Sm90Timing.*' > $R/timing.log 2>&1; echo "timing rc=$? $SECONDS s"
grep -c SM90_TIME $R/timing.log
tar czf $OUT/c7.tar.gz -C /tmp s17c7
