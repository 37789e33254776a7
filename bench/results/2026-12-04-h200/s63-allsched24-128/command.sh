#!/usr/bin/env bash
# Session 63, call 5: as call 4 (allsched_m32_64.sh) at M = 24, 48, 96, 128, with the 128 x 128 tile too (f16 / s8 g128;
# Llama-3-8B, Llama-2-7B, Llama-2-70B, seed), on main with per-variant kernels at TM >= 16 (TM 32 / 64 took 0.85-0.97x
# their time in s63-hybrid/): does the smallm / sm90 crossover move, and is the heuristic's sm90 tile at these M the
# fastest in CUDA graphs (the sweep's 256 x 64 picks ran event-timed)? CUDA graphs of 32 launches, then event-timed.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
( cmake -S . -B build-as -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF \
    -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-as -j "$(nproc)" --target mixgemm-bench ) > "$OUT/as-build.log" 2>&1 ||
  { tail -20 "$OUT/as-build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
C=$(cat .s63/commit.txt)
B=(build-as/tools/mixgemm-bench --all-schedules --no-baselines --iters 20 --warmup 2 --settle-ms 0 --summary-m none
   --quiet --git-commit "$C" --shapes llama3-8b,llama2-7b,llama2-70b,seed --m 24,48,96,128 --types f16.u4b8.g128,s8.u4b8.g128)
timeout 60 "${B[@]}" --csv "$OUT/as-event.csv" > "$OUT/as-event.txt" 2>&1; echo "event rc=$? at $((SECONDS - t0)) s"
timeout 120 "${B[@]}" --graph-batch 32 --csv "$OUT/as-graph.csv" > "$OUT/as-graph.txt" 2>&1; echo "graph rc=$? at $((SECONDS - t0)) s"
build-as/tools/mixgemm-bench --plan --shapes llama3-8b,llama2-7b,llama2-70b,seed --m 24,48,96,128 \
  --types f16.u4b8.g128,s8.u4b8.g128 > "$OUT/as-plan.csv" 2>&1

