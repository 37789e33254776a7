#!/usr/bin/env bash
# s6 last check: the trace facility as merged on main (-DMIXGEMM_SMALLM_TRACE build, timing
# report with MIXGEMM_SMALLM_TRACE_FILE, scripts/smallm_trace_summary.py).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s6trace; rm -rf "$R"; mkdir -p "$R"
( cmake -S . -B build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE &&
  cmake --build build-tr -j 16 --target mixgemm_gpu_tests ) > "$R/build.log" 2>&1 || { echo BUILD FAILED; tail -20 "$R/build.log"; }
echo "build done at $((SECONDS-T0)) s"
MIXGEMM_SMALLM_TRACE_FILE=$R/trace.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,5,6 MIXGEMM_SMALLM_TIMING_MS=1,8 \
  MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=t8_w timeout 100 ./build-tr/tests/mixgemm_gpu_tests \
  --gtest_filter='SmallmTiming.Report' > "$R/timing.log" 2>&1
echo "timing rc=$? at $((SECONDS-T0)) s"; grep SMALLM_TIME "$R/timing.log" | grep "_p0" | cut -c13-110
gzip "$R/trace.txt"; tar czf "$OUT/s6trace.tar.gz" -C /tmp s6trace
python3 scripts/smallm_trace_summary.py "$R/trace.txt.gz" | grep -E "tag|_p0"
echo "total $((SECONDS-T0)) s"
