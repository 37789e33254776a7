#!/usr/bin/env bash
# Session 55, call 2: what binds the 16-bit narrow tiles (diagnostics, results wrong on purpose):
# dact = the activation tile loaded for every other 64-k block only (half the L2 -> SM activation
# traffic); dcvt = no int4 conversion and no scale multiply (the raw words as A fragments);
# dboth = both. f16 x u4b8 g128 at the heuristic's picks, M = 64 (256 x 64), 128 (128 x 128),
# 256 (128 x 256; 128 x 128 on Llama-2-70B o).
set -u
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,clocks.sm,power.draw,driver_version --format=csv > $OUT/gpu.txt
AB_SM90_TYPES=f16.u4 AB_SHAPES=seed,llama2-70b AB_MS=64,128,256 AB_TYPES=f16.u4b8.g128 \
  bash scripts/device_sm90_multi.sh .s55/dact.patch .s55/dcvt.patch .s55/dboth.patch 2>&1 | tee $OUT/multi-summary.txt | tail -45
