#!/usr/bin/env bash
# Session 59 call 7 (diagnostic): is the plain decode kernels' time a matter of where ptxas places the row loop?
# The partial-sum branch is dead code in these launches; its size moves the f16 TM 8 g128 row loop (153
# instructions, the same SASS in every build) to 0x3d010 (main; 16 bytes past a 128-byte line), 0x312e0 (psnone,
# no branch: 96), 0x487b0 (pspad, the branch's code twice: 48) and 0x3b910 (pshalf, one of its two stores: 16).
# Prediction if the loop's alignment matters: pshalf ~ main, psnone slower (as measured in s58 / s59), pspad ?.
# ABBA against main; f16 / s8 / e4m3 g128, M = 1, 4, 8, seed + Llama-2-70B (the plain deferred split-K picks).
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b \
  AB_MS=1,4,8 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=100
bash scripts/device_sm90_multi.sh "$D/psnone.patch" "$D/pspad.patch" "$D/pshalf.patch"
