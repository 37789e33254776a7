#!/usr/bin/env bash
# Session 68 call 1. (a) s67-next's R-for-heavier-rows question: the TM 32 / 64 smallm schedules with KBn scaled by
# 1.5 / 2 / 3 under the square root of the stripe cut (.s68/rscale.patch, device only: MIXGEMM_X_RSCALE), and every
# schedule at scale 1 (today), f16 / s8 / e4m3 x u4b8 g128, M = 24, 32, 48, 64, on call 3's nine narrow layers, CUDA
# graphs and event-timed. (b) A held-out all-schedules table (every smallm schedule, sm90 128 x 64 / 256 x 64) on the
# six narrow layers of s67 call 5, M = 1, 4, 8, 16, 24, 32, 48, 64, both modes: the data a row-model refit for
# M = 48 / 64 is checked on. Each phase tars its CSVs into $OUT (the device returns at most 8 files).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; W=/tmp/c1; mkdir -p $W/a $W/b
git apply .s68/rscale.patch || exit 1
t0=$SECONDS
( cmake -S . -B build-c1 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
    "-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk" \
    -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF &&
  cmake --build build-c1 -j "$(nproc)" --target mixgemm-bench ) > "$W/build.log" 2>&1 || { tail -20 "$W/build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
C=$(cat .s68/commit.txt)
TY=(--types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128)
BASE=(build-c1/tools/mixgemm-bench --no-baselines --iters 20 --warmup 2 --settle-ms 0 --summary-m none --quiet --git-commit "$C")
SA=(--shapes none --shape 768x4096 --shape 1536x4096 --shape 1280x8192 --shape 1920x5120 --shape 1152x3584
    --shape 3072x4096 --shape 2304x3584 --shape 896x5120 --shape 4096x4096)
# (a) scale 1: every schedule; scales 1.5 / 2 / 3: the four TM >= 32 schedules (the switch touches only those)
for mode in event graph; do
  extra=(); [ $mode = graph ] && extra=(--graph-batch 32)
  timeout 100 "${BASE[@]}" --all-schedules "${SA[@]}" "${TY[@]}" --m 24,32,48,64 "${extra[@]}" --csv "$W/a/s1-$mode.csv" > /dev/null 2>&1
  echo "a s1 $mode rc=$? at $((SECONDS - t0)) s"
  for sc in 1.5 2 3; do
    for s in smallm_t32_w4_o2_p0 smallm_t32_w8_o1_p0 smallm_t64_w4_o2_p0 smallm_t64_w8_o1_p0; do
      MIXGEMM_X_RSCALE=$sc timeout 40 "${BASE[@]}" --schedule $s "${SA[@]}" "${TY[@]}" --m 24,32,48,64 "${extra[@]}" \
        --csv "$W/a/s$sc-$mode-$s.csv" > /dev/null 2>&1 || echo "a $sc $mode $s rc=$?"
    done
    echo "a s$sc $mode at $((SECONDS - t0)) s"
  done
done
git apply -R .s68/rscale.patch
(cd $W && tar czf "$OUT/a.tar.gz" a build.log)
# (b) held out: every schedule, six narrow layers none of the refit's data has
SB=(--shapes none --shape 1024x8192 --shape 2048x3584 --shape 1024x3584 --shape 1792x5120 --shape 768x5120 --shape 1152x7168)
for mode in event graph; do
  extra=(); [ $mode = graph ] && extra=(--graph-batch 32)
  timeout 120 "${BASE[@]}" --all-schedules "${SB[@]}" "${TY[@]}" --m 1,4,8,16,24,32,48,64 "${extra[@]}" --csv "$W/b/$mode.csv" > /dev/null 2>&1
  echo "b $mode rc=$? at $((SECONDS - t0)) s"
done
build-c1/tools/mixgemm-bench --plan "${SB[@]}" "${TY[@]}" --m 1,4,8,16,24,32,48,64 > "$W/b/plan.csv" 2>&1
(cd $W && tar czf "$OUT/b.tar.gz" b)
ls -la "$OUT"
