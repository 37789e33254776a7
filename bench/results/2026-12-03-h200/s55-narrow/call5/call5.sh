#!/usr/bin/env bash
# Session 55 call 5: the 64-token tiles load the next block's weights before the wgmma wait, as the
# 128-token tile does since session 16 (early64.patch; session 16 measured 1.00-1.04x slower on the
# kernels of then). f16 / s8 g128 at the heuristic's picks, M = 32, 64, seed + Llama-2-70B.
set -u
export PATH=/usr/local/cuda/bin:$PATH
AB_SM90_TYPES=f16.u4,s8.u4 AB_SHAPES=seed,llama2-70b AB_MS=32,64 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 \
  bash scripts/device_sm90_multi.sh .s55/early64.patch 2>&1 | tee $OUT/multi-summary.txt | tail -30
