#!/usr/bin/env bash
# Session 64, fourth call (the last ~6 device minutes): the merged form (tailbox_fill4k.patch = branch
# wip/sm90-tail-box-hoisted against main): the third call's producer, with the exact box only where a full box would
# zero-fill >= 4 KB per 64-k block (sm90_tail_box_for), since 128 x 64 f16 at M = 48 (2 KB) took 1.06x with it.
# 128 x 64 forced, then the heuristic's picks (128 x 64 / 256 x 64 / 128 x 128 built), CUDA graphs of 32, --verify on
# the picks; M = 24 / 48 / 96 / 160; f16 / s8 g128; 9 layers. No tests (the kernels are the third call's).
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 \
  AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,48,96,160 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="--schedule sm90_128x64_1x1x1_coop_splitk --graph-batch 32 --iters 30" \
  AB_PASSES="picks:--graph-batch 32 --iters 30 --verify"
bash scripts/device_sm90_multi.sh "$D/tailbox_fill4k.patch"
