#!/usr/bin/env bash
# Session 53 call 4: the 8-bit models' 256-token block time refitted to the tail-box kernels (a8t256.patch) against
# main, at the heuristic's picks (row split on), s8 / e4m3 x u4b8 g128, the call-3 layers plus Llama-2-7B (held out),
# M = 160..1400 (the call-3 M values and others), base v1 v1 base, no settle.
S=${S:-.s53}
export AB_SM90_TYPES=s8.u4,e4m3.u4 AB_SHAPES=seed,llama2-70b,llama3-8b,llama2-7b \
  AB_MS=160,192,224,288,320,352,384,416,448,480,544,576,640,704,768,1000,1152,1400 \
  AB_TYPES=s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0
timeout 560 bash scripts/device_sm90_multi.sh $S/a8t256.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
