#!/usr/bin/env bash
# Session 28, device call 7: the splat folded into mul/fma.f16x2 operands (wip/scale-splat-fold) against main:
# convert / smallm / sm90 / API GPU suites + sanitizers, bench at M = 1 / 16 / 64 (smallm and sm90 256x64).
export AB_SM90_TYPES=f16.u4,bf16.u4 AB_SM90_SCHEDULES=256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=1,16,64 AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,f16.u4.g128 AB_SETTLE_MS=0 \
  AB_TEST_FILTER='ConvertGpu.*:Smallm.*:Sm90.*:GemmApi.*:-SmallmTiming.*:Sm90Timing.*' AB_SANITIZE=1
timeout 500 bash scripts/device_sm90_multi.sh .s28/splat.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed" 
tar xzf $OUT/multi.tar.gz -C /tmp 2>/dev/null; python3 scripts/ab_multi_summary.py /tmp/multi base splat 2>/dev/null | grep -E "M=\s+1 |seed" | head -12
