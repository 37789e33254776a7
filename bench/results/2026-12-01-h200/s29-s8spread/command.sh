#!/usr/bin/env bash
# Session 29, device call 1: s8 word-level nibble spread (wip/s8-spread) and the wgmma descriptor's 32-bit
# address add (wip/sm90-desc-lo) against main: convert / smallm / sm90 / API GPU suites + sanitizers; bench at
# M = 1 / 8 / 16 (smallm), 64 (sm90 256x64), 256 (128x256), f16 and s8 u4b8 g128, s8 per-channel.
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES=256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk,128x256_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=1,8,16,64,256 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch AB_SETTLE_MS=0 \
  AB_TEST_FILTER='ConvertGpu.*:Smallm.*:Sm90.*:GemmApi.*:-SmallmTiming.*:Sm90Timing.*' AB_SANITIZE=1
timeout 560 bash scripts/device_sm90_multi.sh .s29/s8spread.patch .s29/desclo.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
