#!/usr/bin/env bash
# Prepared in session 68, not run (no device lent). Where does smallm's partial exchange cost its time? partdiag.patch
# (device only; results WRONG while a switch is on, so no --verify) adds MIXGEMM_X_PARTDIAG: bit 1 skips the CTAs'
# partial-tile stores, bit 2 the deferred reduction grid's launch (3: both). The heuristic's picks, f16 / s8 x u4b8
# g128: the narrow layers 768 x 4096 / 3072 x 4096 / 1536 x 4096 at M = 16, 32, 48, 64 (the narrow model's partial term:
# 1.0-2.2 us per MB) and the #6 shapes at M = 1, 8, 16 (session 46's 1.8-2.8 us reduction grid), CUDA graphs and
# event-timed, switch 0 / 1 / 2 / 3 in one build. Copy to .sN/ with partdiag.patch and commit.txt, carry .sN (~4 min).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; W=/tmp/pd; mkdir -p $W
D=$(basename "$(dirname "$0")")
git apply "$D/partdiag.patch" || exit 1
t0=$SECONDS
( cmake -S . -B build-pd -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 \
    "-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk" \
    -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-pd -j "$(nproc)" --target mixgemm-bench ) \
  > "$W/build.log" 2>&1 || { tail -30 "$W/build.log"; git apply -R "$D/partdiag.patch"; exit 1; }
echo "built at $((SECONDS - t0)) s"
B=(build-pd/tools/mixgemm-bench --no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$(cat "$D/commit.txt")"
   --iters 50 --warmup 3 --types f16.u4b8.g128,s8.u4b8.g128)
for sw in 0 1 2 3; do
  for mode in graph event; do
    extra=(); [ $mode = graph ] && extra=(--graph-batch 32)
    MIXGEMM_X_PARTDIAG=$sw timeout 60 "${B[@]}" --shapes none --shape 768x4096 --shape 3072x4096 --shape 1536x4096 \
      --m 16,32,48,64 "${extra[@]}" --csv "$W/narrow-$sw-$mode.csv" > /dev/null 2>&1
    MIXGEMM_X_PARTDIAG=$sw timeout 60 "${B[@]}" --shapes seed,llama2-70b --m 1,8,16 "${extra[@]}" \
      --csv "$W/decode-$sw-$mode.csv" > /dev/null 2>&1
    echo "switch $sw $mode at $((SECONDS - t0)) s"
  done
done
git apply -R "$D/partdiag.patch"
cd $W && tar czf "$OUT/partdiag.tar.gz" *.csv build.log && ls -la "$OUT"
