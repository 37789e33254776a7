#!/usr/bin/env bash
# Session 29, device call 5 (short: the session's last device minutes): smallm s8 offset weights + correction MMA
# (wip/smallm-s8-u8) against main: s8 converter and smallm W4A8 suites, memcheck / racecheck of SmallmSanitize*,
# bench base cand cand base at M = 1 / 8 / 16 (smallm), s8 u4b8 g128 and per-channel, 9 layers.
export AB_SM90_TYPES=s8.u4 AB_SM90_SCHEDULES=256x64_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=1,8,16 AB_TYPES=s8.u4b8.g128,s8.u4b8.gch AB_SETTLE_MS=0 \
  AB_TEST_FILTER='ConvertGpu.EightBit*:Smallm.W4A8*:Smallm.StreamShapes:Smallm.RingWrap:Smallm.RealShape' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='SmallmSanitize*'
timeout 265 bash scripts/device_sm90_multi.sh .s29/s8u8.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
