#!/usr/bin/env bash
# Prepared in session 63 (not run): a diagnostic before ab_tailbox64.sh, or instead of ab_tailbox64_forced.sh: main
# against the exact tail box on the 64-token tiles (tailbox64.patch) and on the 64- and 128-token tiles
# (tailbox64_128.patch: the same with sm90_tail_box(128) true, its comment not updated; session 52 found the
# 128-token box 0.86-0.87x at 32-row tails but 1.02-1.13x at M = 256, where no tile has a tail), each tile forced:
# 128 x 64 in the main pass, 256 x 64 and 128 x 128 in two more, CUDA graphs of 32 launches, no tests; M = 24 / 48 / 96
# (tails of 24 / 48 / 32 rows on the 64-token tiles; 104 / 80 / 32 on 128 x 128), 128 and 256 (no tail on either:
# the placement controls); f16 / s8 g128; 9 layers. ~8-9 min.
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 \
  AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,48,96,128,256 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="--schedule sm90_128x64_1x1x1_coop_splitk --graph-batch 32 --iters 30" \
  AB_PASSES="t256x64:--schedule sm90_256x64_1x1x1_coop_splitk --graph-batch 32 --iters 30"
AB_PASSES+=";t128x128:--schedule sm90_128x128_1x1x1_coop_splitk --graph-batch 32 --iters 30"
bash scripts/device_sm90_multi.sh "$D/tailbox64.patch" "$D/tailbox64_128.patch"
