#!/usr/bin/env bash
# Session 30, device call 1: session 29's two prepared candidates against main in one run:
# s8u8 (wip/smallm-s8-u8: smallm s8 offset weights into mma .u8.s8 + correction MMA) and
# lutshr (wip/e4m3-lut-shr-fma: the e4m3 lookup's idx >> 16 on the FMA pipe).
# Suites (ConvertGpu, smallm W4A8, Sm90) + memcheck / racecheck of the smallm and sm90 sanitizer tests;
# bench base v1 v2 v2 v1 base at M = 1 / 8 / 16 (smallm) and 64 / 256 / 8192 (sm90), 9 layers.
export AB_SM90_TYPES=s8.u4,e4m3.u4 AB_SM90_SCHEDULES= \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=1,8,16,64,256,8192 \
  AB_TYPES=s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128,e4m3.u4.g128 AB_SETTLE_MS=0 \
  AB_TEST_FILTER='ConvertGpu.*:Smallm.W4A8*:Smallm.StreamShapes:Smallm.RingWrap:Smallm.RealShape:Sm90.*:-Sm90Timing.*' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='SmallmSanitize*:Sm90Sanitize*'
timeout 580 bash scripts/device_sm90_multi.sh .s30/s8u8.patch .s30/lutshr.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
