#!/usr/bin/env bash
# Session 29, device call 2: the split-K last arriver keeping its own partial in registers (wip/sm90-own-partial)
# and the e4m3 per-call converter's folded splat (wip/e4m3-splat-fold) against main: sm90 / API / convert suites +
# sanitizers; bench at M = 64 / 128 / 256 (split tiles), f16 / s8 / e4m3 u4b8 g128 and e4m3 u4 g128 (zero points).
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=64,128,256 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128,e4m3.u4.g128 AB_SETTLE_MS=0 \
  AB_TEST_FILTER='ConvertGpu.*:Sm90.*:GemmApi.*:-Sm90Timing.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*'
timeout 570 bash scripts/device_sm90_multi.sh .s29/ownpartial.patch .s29/e4m3fold.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
