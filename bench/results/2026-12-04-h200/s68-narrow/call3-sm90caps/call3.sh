#!/usr/bin/env bash
# Session 68 call 3: does sm90 over-split the narrow layers? (.s68/maxsplit.patch, device only: MIXGEMM_X_MAXSPLIT=S
# caps sm90's split-K parts at S and turns stream-K off.) sm90 128x64 / 256x64 / 128x128 forced, f16 / s8 / e4m3 x u4b8
# g128, M = 48, 64, 96, 128, 192, 256, eight narrow layers, caps none (today: up to 16 parts, stream-K allowed) / 1 / 2 /
# 4 / 8, CUDA graphs and event-timed; and the heuristic's picks with no cap (the baseline). Reuses build-c2 (call 2).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; W=/tmp/c3; mkdir -p $W
git apply .s68/maxsplit.patch || exit 1
t0=$SECONDS
( cmake -S . -B build-c2 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
    "-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk,128x256_1x1x1_coop_splitk" \
    -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-c2 -j "$(nproc)" --target mixgemm-bench ) > "$W/build.log" 2>&1 ||
  { tail -30 "$W/build.log"; git apply -R .s68/maxsplit.patch; exit 1; }
echo "built at $((SECONDS - t0)) s"
C=$(cat .s68/commit.txt)
B=(build-c2/tools/mixgemm-bench --no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$C" --iters 30 --warmup 2)
S=(--shapes none --shape 768x4096 --shape 1152x3584 --shape 1536x4096 --shape 2304x3584 --shape 3072x4096
   --shape 1280x8192 --shape 1024x8192 --shape 2304x16384 --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128
   --m 48,64,96,128,192,256)
for mode in graph event; do
  extra=(); [ $mode = graph ] && extra=(--graph-batch 32)
  timeout 40 "${B[@]}" "${S[@]}" "${extra[@]}" --csv "$W/pick-$mode.csv" > /dev/null 2>&1; echo "pick $mode rc=$? at $((SECONDS - t0)) s"
  for cap in none 1 2 4 8; do
    env=(); [ $cap != none ] && env=(MIXGEMM_X_MAXSPLIT=$cap)
    for t in 128x64 256x64 128x128; do
      env "${env[@]}" timeout 40 "${B[@]}" "${S[@]}" "${extra[@]}" --schedule sm90_${t}_1x1x1_coop_splitk \
        --csv "$W/cap$cap-$t-$mode.csv" > /dev/null 2>&1 || echo "cap $cap $t $mode rc=$?"
    done
    echo "cap $cap $mode at $((SECONDS - t0)) s"
  done
done
git apply -R .s68/maxsplit.patch
cd $W && tar czf "$OUT/c3.tar.gz" *.csv build.log && ls -la "$OUT"
