#!/usr/bin/env bash
# Prepared in session 63 (not run): as ab_tailbox64.sh, each 64-token tile forced (the heuristic's picks mix tiles),
# no tests; 128 x 64 in the main pass, 256 x 64 in a second pass, both in CUDA graphs of 32 launches; M = 17 / 24 / 32
# / 48 / 64; f16 / s8 g128; 9 layers. ~6 min.
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=17,24,32,48,64 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=50 \
  AB_BENCH_EXTRA="--schedule sm90_128x64_1x1x1_coop_splitk --graph-batch 32 --iters 40" \
  AB_PASSES="t256x64:--schedule sm90_256x64_1x1x1_coop_splitk --graph-batch 32 --iters 40"
bash scripts/device_sm90_multi.sh "$D/tailbox64.patch"
