#!/usr/bin/env bash
# Session 41, call 1 (= session 40's call 7 with the kernel regex fixed): ncu, real clocks, caches not flushed,
# warp sampling every 32 cycles, of the smallm GEMM grid (t8_w8_o1, M = 1, f16 x u4b8 g128) on Llama-3-8B o
# (shape 5, 4096 x 4096) and Llama-2-70B o (shape 2, 8192 x 8192).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS
cmake -S . -B build-prof -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_TOOLS=OFF -DMIXGEMM_BUILD_PYTHON=OFF > $OUT/build.log 2>&1
cmake --build build-prof -j 16 --target mixgemm_gpu_tests >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
NCU_EXTRA="--clock-control none --cache-control none --warp-sampling-interval 0" \
  CASES="${CASES:-5:1:t8_w8_o1_p0 2:1:t8_w8_o1_p0}" BUILD=build-prof \
  timeout 300 bash scripts/profile_smallm.sh 2>&1 | tail -70
echo "done at $((SECONDS - t0)) s"
gzip -f $OUT/build.log
