#!/usr/bin/env bash
# Session 64: the exact TMA box for a partial last token tile on every tile (tailbox_hoisted.patch = branch
# wip/sm90-tail-box-hoisted against main), with the producer's slot test in a loop of its own over a tail unit's
# first blocks, so that the blocks of units without a tail (and the later tail blocks) take a loop with a constant
# map and byte count. Why: ab_tailbox_diag.sh (this session, first call) found the exact box on 128 x 128 0.58-0.87x
# at M = 24 / 48, but both session-63 patches 1.02-1.12x slower at M = 128 / 256 where no tile has a tail (the slot
# test in every block's path of the single producer thread, which sets the narrow tiles' pace).
# Checks: Sm90.* (TailTokenTile: every tile at M = 2T+1, 2T+8, 3T-1 on 4 SMs) and GemmApi.*, memcheck / racecheck of
# Sm90Sanitize*. Timing: heuristic picks in CUDA graphs of 32 launches with --verify, then each tile forced
# (128 x 64, 128 x 128, 256 x 64), ABBA; M = 24 / 48 / 96 / 160 (tails), 128 / 256 (none: the controls); f16 / s8 g128;
# 9 layers.
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 \
  AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,48,96,128,160,256 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 30 --verify" \
  AB_TEST_FILTER='Sm90.*:GemmApi.*:-Sm90Timing.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*' \
  AB_PASSES="t128x64:--schedule sm90_128x64_1x1x1_coop_splitk --graph-batch 32 --iters 30"
AB_PASSES+=";t128x128:--schedule sm90_128x128_1x1x1_coop_splitk --graph-batch 32 --iters 30"
AB_PASSES+=";t256x64:--schedule sm90_256x64_1x1x1_coop_splitk --graph-batch 32 --iters 30"
bash scripts/device_sm90_multi.sh "$D/tailbox_hoisted.patch"
