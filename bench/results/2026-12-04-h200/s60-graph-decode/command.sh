#!/usr/bin/env bash
# Session 60, call 4: the decode bars' points in CUDA graphs (the engine's setting), the first such table since
# session 42's: the heuristic's picks and cuBLAS fp16 each timed as 32 launches back to back in one graph (cold-L2
# rotation inside the graph), M = 1..64, seed + Llama-2-70B, f16 / bf16 / s8 / e4m3 x u4b8 g128, --verify.
# Restricted sm90 build (the M = 32 / 64 picks: 128 x 64, 256 x 64) to fit the device call.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}
t0=$SECONDS
cmake -S . -B build-s60 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_TESTS=OFF \
  -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk > $OUT/build.log 2>&1 &&
  cmake --build build-s60 --target mixgemm-bench -j 16 >> $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 2; }
echo "built at $((SECONDS - t0)) s"
BENCH=build-s60/tools/mixgemm-bench TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 ITERS=20 \
  TIME_LIMIT=330 MIXGEMM_GIT_COMMIT=$(cat .s60/commit.txt) \
  EXTRA="--m 1,2,4,8,16,32,64 --graph-batch 32 --baselines cublas_fp16" \
  bash scripts/run_bench_h200.sh $OUT/graph 2>&1 | tail -40
echo "total $((SECONDS - t0)) s"
