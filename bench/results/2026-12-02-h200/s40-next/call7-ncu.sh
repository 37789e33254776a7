#!/usr/bin/env bash
# Session 40, call 7: ncu (real clocks, caches not flushed) of t8_w8_o1 at M = 1 on Llama-3-8B o (4096 x 4096) and
# Llama-2-70B o (8192 x 8192), f16 x u4b8 g128: per-instruction stall samples, to see where warp 1's 0.65-2.5 us of
# "stage" time (the trace's account for load_stage) goes. scripts/profile_smallm.sh with a restricted build.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS
cmake -S . -B build-prof -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_TOOLS=OFF -DMIXGEMM_BUILD_PYTHON=OFF > $OUT/build.log 2>&1
cmake --build build-prof -j 16 --target mixgemm_gpu_tests >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
NCU_EXTRA="--clock-control none --cache-control none" CASES="${CASES:-5:1:t8_w8_o1_p0}" BUILD=build-prof \
  timeout 150 bash scripts/profile_smallm.sh 2>&1 | tail -60
echo "done at $((SECONDS - t0)) s"
gzip -f $OUT/build.log
