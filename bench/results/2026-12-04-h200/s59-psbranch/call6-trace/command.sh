#!/usr/bin/env bash
# Session 59 call 6 (diagnostic): the smallm trace (per-CTA milestones, warps 0/1 cycle accounts; -DMIXGEMM_SMALLM_TRACE)
# of main and of main without the partial-sum branch (psnone.patch), f16 x u4b8 g128, Llama-2-70B o (8192 x 8192,
# shape 2) at M = 1 / 4 / 8 with the picks t8_w4_o4 / t8_w8_o2, and the seed (shape 0). Where does psnone's extra
# time at M = 4 / 8 (s59-redspread/: 1.11-1.14x on 70B o) sit: prologue, chunk loop, segment ends, or outside the grid?
set -uo pipefail
D=$(dirname "$0")
OUT=${OUT:-$PWD/device-out}
export PATH=/usr/local/cuda/bin:$PATH
rm -rf /tmp/psn && mkdir -p /tmp/psn && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/psn
(cd /tmp/psn && patch -p1 --forward < "$OLDPWD/$D/psnone.patch") > "$OUT/patch.log" 2>&1 || { cat "$OUT/patch.log"; exit 3; }
for r in "$PWD" /tmp/psn; do
  (cmake -S "$r" -B "$r/build-tr" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
     -DMIXGEMM_SM90_SCHEDULES=256x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_TOOLS=OFF -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE \
   && cmake --build "$r/build-tr" -j 16 --target mixgemm_gpu_tests) > "$OUT/build-$(basename "$r").log" 2>&1 || echo "BUILD $r FAILED" &
done
wait
for v in main psnone; do
  r=$PWD; [ $v = psnone ] && r=/tmp/psn
  for cfg in t8_w4_o4_p0 t8_w8_o2_p0; do
    MIXGEMM_SMALLM_TRACE_FILE=$OUT/trace-$v.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=2,0 \
      MIXGEMM_SMALLM_TIMING_MS=1,4,8 MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=$cfg \
      timeout 120 "$r/build-tr/tests/mixgemm_gpu_tests" --gtest_filter='SmallmTiming.Report' >> "$OUT/timing-$v.log" 2>&1
  done
  python3 scripts/smallm_trace_summary.py "$OUT/trace-$v.txt" > "$OUT/trace-summary-$v.txt" 2>&1
  gzip -f "$OUT/trace-$v.txt"
done
grep -hE "t8_w" "$OUT"/timing-*.log | head -30
head -40 "$OUT/trace-summary-main.txt"; head -40 "$OUT/trace-summary-psnone.txt"
