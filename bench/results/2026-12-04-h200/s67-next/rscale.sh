#!/usr/bin/env bash
# Prepared in session 67, not run (no device time left; copy to .sN/ with rscale.patch, set .sN/commit.txt, carry .sN;
# ~4 min with the build). Does TM 32 / 64 want a larger R than ceil(sqrt(KBn))? Every smallm schedule, f16 / s8 / e4m3 x
# u4b8 g128, M = 24, 32, 48, 64 on the narrow layers of s67-aligned call 3, with KBn scaled by 1 (today), 1.5, 2, 3
# under the square root for TM >= 32 (MIXGEMM_X_RSCALE, rscale.patch applied on the device only), in CUDA graphs and
# event-timed. Analysis: the fastest TM 32 / 64 schedule per point and scale (s67-aligned/analysis/call2_caps.py's way).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; W=/tmp/rs; mkdir -p $W
git apply "$(dirname "$0")/rscale.patch" || exit 1
t0=$SECONDS
( cmake -S . -B build-rs -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF &&
  cmake --build build-rs -j "$(nproc)" --target mixgemm-bench ) > "$W/build.log" 2>&1 || { tail -20 "$W/build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
B=(build-rs/tools/mixgemm-bench --all-schedules --no-baselines --iters 20 --warmup 2 --settle-ms 0 --summary-m none --quiet
   --git-commit "$(cat "$(dirname "$0")/commit.txt")" --shapes none --shape 768x4096 --shape 1536x4096 --shape 1280x8192
   --shape 1920x5120 --shape 1152x3584 --shape 3072x4096 --shape 2304x3584 --shape 896x5120 --shape 4096x4096
   --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --m 24,32,48,64)
for sc in 1 1.5 2 3; do
  for mode in event graph; do
    extra=(); [ $mode = graph ] && extra=(--graph-batch 32)
    MIXGEMM_X_RSCALE=$sc timeout 90 "${B[@]}" "${extra[@]}" --csv "$W/s$sc-$mode.csv" > /dev/null 2>&1
    echo "scale $sc $mode rc=$? at $((SECONDS - t0)) s"
  done
done
git apply -R "$(dirname "$0")/rscale.patch"
cd $W && tar czf "$OUT/rscale.tar.gz" *.csv build.log && ls -la "$OUT"
