#!/usr/bin/env bash
# Session 59: the same profiles at the real clocks with the caches left warm (NCU_EXTRA), as the bench runs them.
# Prepared in session 58: why the plain TM 8 decode kernel's time moves with session 48's partial-sum branch
# (docs/design-smallm.md "Session 58": f16 g128 at M = 8 on 8192 x 8192 1.08-1.13x slower without it). ncu of one
# launch of t8_w8_o2 (the pick at M = 8) on shape 2 (8192 x 8192) and t8_w4_o4 at M = 4 on the seed, f16 x u4b8
# g128, main and main without the branch (psnone.patch), each built here: compare issued instructions, IPC, the
# stall reasons (no_instruction: instruction fetch) and where the extra time sits (source_*.csv per SASS line).
set -uo pipefail
D=$(dirname "$0")
OUT=${OUT:-$PWD/device-out}
rm -rf /tmp/psn && mkdir -p /tmp/psn && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/psn
(cd /tmp/psn && patch -p1 --forward < "$OLDPWD/$D/psnone.patch") > "$OUT/patch.log" 2>&1 || { cat "$OUT/patch.log"; exit 3; }
export NCU_EXTRA="--clock-control none --cache-control none" CASES="2:8:t8_w8_o2_p0 0:4:t8_w4_o4_p0" PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$OUT/main" "$OUT/psnone"
# Both test builds in parallel (what profile_smallm.sh would build), then the profiles one after the other.
for r in "$PWD" /tmp/psn; do
  (cmake -S "$r" -B "$r/build-prof" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
     -DMIXGEMM_SM90_SCHEDULES=256x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_TOOLS=OFF \
   && cmake --build "$r/build-prof" -j 8 --target mixgemm_gpu_tests) > "$OUT/build-$(basename "$r").log" 2>&1 || echo "BUILD $r FAILED" &
done
wait
OUT=$OUT/main bash scripts/profile_smallm.sh > "$OUT/main.log" 2>&1
OUT=$OUT/psnone bash /tmp/psn/scripts/profile_smallm.sh > "$OUT/psnone.log" 2>&1
tail -n 25 "$OUT/main.log" "$OUT/psnone.log"
