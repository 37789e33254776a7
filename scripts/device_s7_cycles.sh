#!/usr/bin/env bash
# Session 7, device call 6: where a warp's time goes in the smallm chunk loop. A trace build
# (-DMIXGEMM_SMALLM_TRACE: per-CTA timeline + per-warp cycle accounts of warps 0 and 1,
# src/kernels/smallm/smallm_trace.cuh) runs the GPU timing report at M = 1, every TM 8
# schedule, on seed, 57344 x 8192, 4096 x 4096 and 28672 x 4096; scripts/smallm_trace_summary.py
# prints the medians. $OUT/s7cyc.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s7cyc; rm -rf "$R"; mkdir -p "$R"
cp .s7/commit.txt "$R/commit.txt"
( cmake -S . -B build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE &&
  cmake --build build-tr -j 16 --target mixgemm_gpu_tests ) > "$R/build.log" 2>&1
echo "build rc=$? at $((SECONDS-T0)) s"
MIXGEMM_SMALLM_TRACE_FILE=$R/trace.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,3,5,7 \
  MIXGEMM_SMALLM_TIMING_MS=1 MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=t8_ \
  timeout 100 build-tr/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > "$R/timing.log" 2>&1
echo "timing rc=$? at $((SECONDS-T0)) s"
gzip -f "$R/trace.txt"
tar czf "$OUT/s7cyc.tar.gz" -C /tmp s7cyc
python3 scripts/smallm_trace_summary.py "$R/trace.txt.gz" | grep -E "_p0|chunk loop|^tag"
echo "total $((SECONDS-T0)) s"
