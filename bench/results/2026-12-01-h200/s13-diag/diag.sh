#!/usr/bin/env bash
# Session 13 diagnostic: where the final split-K reduction's 2-3 us go (trace milestones).
set -uo pipefail
R=$OUT/diag; mkdir -p $R; T0=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH
( cmake -S . -B build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE && \
  cmake --build build-tr -j 16 --target mixgemm_gpu_tests ) > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build $((SECONDS-T0)) s"
for MS in 1 8; do
MIXGEMM_SMALLM_TRACE_FILE=$R/trace-m$MS.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,3,5,7 \
  MIXGEMM_SMALLM_TIMING_MS=$MS MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=_p0 \
  timeout 100 build-tr/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > $R/timing-m$MS.log 2>&1
echo "trace M=$MS rc=$? $((SECONDS-T0)) s"
gzip -f $R/trace-m$MS.txt
done
python3 .s13/tail.py $R/trace-m1.txt.gz $R/trace-m8.txt.gz
