#!/usr/bin/env bash
# Prepared in session 63 (not run): every sm90 tile and smallm schedule for f16 x u4b8 g128 on the current kernels,
# the data for refitting the 16-bit sm90 time model (kModelA16 in src/kernels/sm90/sm90_heuristic.cpp), whose block
# times date from session 2's kernels: at M = 24..128 it predicts 1.5-1.7x the measured time of the 128 x 64 tile,
# 1.35-1.43x of 256 x 64 and 1.25-1.32x of 128 x 128 (session 63, ../s63-allsched24-128/), and the picks there take
# 1.020x (graphs) / 1.011x (event) the fastest time, worst 1.15-1.23x. The model also sets every split and the
# smallm / sm90 crossover. 13 layers (Llama-3-8B, Llama-2-7B, Llama-2-70B, seed); event-timed at M = 24..768, in
# CUDA graphs of 32 launches at M = 24..128. ~6 min.
#   copy this folder to .sN/, set .sN/commit.txt to HEAD, then: bash .sN/allsched_sm90_f16.sh   (carry .sN)
set -uo pipefail
S=$(dirname "$0")
cd "$S/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
( cmake -S . -B build-f16 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_BUILD_TESTS=OFF \
    -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-f16 -j "$(nproc)" --target mixgemm-bench ) > "$OUT/f16-build.log" 2>&1 ||
  { tail -20 "$OUT/f16-build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
B=(build-f16/tools/mixgemm-bench --all-schedules --no-baselines --iters 20 --warmup 2 --settle-ms 0 --summary-m none
   --quiet --git-commit "$(cat "$S/commit.txt")" --shapes llama3-8b,llama2-7b,llama2-70b,seed --types f16.u4b8.g128)
timeout 150 "${B[@]}" --m 24,32,48,64,96,128,160,192,256,384,512,768 --csv "$OUT/f16-event.csv" > "$OUT/f16-event.txt" 2>&1
echo "event rc=$? at $((SECONDS - t0)) s"
timeout 150 "${B[@]}" --m 24,32,48,64,96,128 --graph-batch 32 --csv "$OUT/f16-graph.csv" > "$OUT/f16-graph.txt" 2>&1
echo "graph rc=$? at $((SECONDS - t0)) s"
build-f16/tools/mixgemm-bench --plan --shapes llama3-8b,llama2-7b,llama2-70b,seed --types f16.u4b8.g128 \
  --m 24,32,48,64,96,128,160,192,256,384,512,768 > "$OUT/f16-plan.csv" 2>&1
gzip -f "$OUT"/f16-*.txt "$OUT/f16-build.log"
