#!/usr/bin/env bash
# Prepared in session 39, not run: where a split-K contributor's cost goes under the deferred reduction. Main built with
# the smallm trace (-DMIXGEMM_SMALLM_TRACE), the timing report's per-CTA milestones at M = 1, every TM 8 schedule, on
# Llama-3-8B down (4096 x 14336, index 8: one 8-warp CTA per SM is fastest, 16 warps per SM 6-24% slower in graphs) and
# Llama-2-70B o (8192 x 8192, index 2: the reverse for f16). Prints each schedule's phase medians
# (scripts/smallm_trace_summary.py): prologue, compute, final segment to exit, and the launch's span.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS
( cmake -S . -B build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE && \
  cmake --build build-tr -j 16 --target mixgemm_gpu_tests ) > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
MIXGEMM_SMALLM_TRACE_FILE=$OUT/trace.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=8,2 MIXGEMM_SMALLM_TIMING_MS=1 \
  MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=t8_ \
  timeout 200 build-tr/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > $OUT/timing.log 2>&1
echo "trace rc=$? at $((SECONDS - t0)) s"
gzip -f $OUT/trace.txt $OUT/build.log
python3 scripts/smallm_trace_summary.py $OUT/trace.txt.gz | tee $OUT/trace-summary.txt
