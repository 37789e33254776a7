#!/usr/bin/env bash
# Session 67 call 5: the lone-4-warp row (lone.diff on abd8c0a: a 4-warp CTA alone on its SM priced at 0.7x an 8-warp
# CTA's row) against abd8c0a's heuristic in one build (.s67/nolone.patch, device only: MIXGEMM_X_NOLONE=1 restores it),
# on narrow layers none of calls 1-4 timed, where the picks move (1024x8192, 2048x3584, 1024x3584, 1792x5120, 768x5120,
# 1152x7168) and three where they do not (2560x8192, 3584x4096, 4096x1792): the heuristic's picks, f16 / s8 / e4m3 x
# u4b8 g128, M = 1, 4, 8, 12, 16, 24, 32, CUDA graphs (two runs per side, alternating) and event-timed. Each CSV goes
# to $OUT as it is written (the device returns at most 8 files).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
git apply .s67/nolone.patch || exit 1
t0=$SECONDS
( cmake -S . -B build-c5 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF \
    -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-c5 -j "$(nproc)" --target mixgemm-bench ) > "$OUT/build.log" 2>&1 ||
  { tail -30 "$OUT/build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
B=(build-c5/tools/mixgemm-bench --no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$(cat .s67/commit.txt)"
   --iters 50 --warmup 3 --shapes none --shape 1024x8192 --shape 2048x3584 --shape 1024x3584 --shape 1792x5120
   --shape 768x5120 --shape 1152x7168 --shape 2560x8192 --shape 3584x4096 --shape 4096x1792
   --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --m 1,4,8,12,16,24,32)
for run in new1 old1 new2 old2 newe olde; do
  env=(); case $run in old*) env=(MIXGEMM_X_NOLONE=1);; esac
  extra=(--graph-batch 32); case $run in *e) extra=();; esac
  env "${env[@]}" timeout 40 "${B[@]}" "${extra[@]}" --csv "$OUT/$run.csv" > /dev/null 2>&1
  echo "$run rc=$? at $((SECONDS - t0)) s"
done
git apply -R .s67/nolone.patch
