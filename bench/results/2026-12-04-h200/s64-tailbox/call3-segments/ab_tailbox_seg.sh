#!/usr/bin/env bash
# Session 64, third call: the exact TMA box as merged (tailbox_seg.patch = branch wip/sm90-tail-box-hoisted against
# main): every tile but the 64-token one with 8-bit activations, the producer's blocks in segments of one map and
# byte count (a tile without the tail box compiles to main's SASS; the second call's lambda form changed every
# producer's SASS). Checks: Sm90.* and GemmApi.* (TailTokenTile: every tile at M = 2T+1, 2T+8, 3T-1 on 4 SMs),
# memcheck / racecheck of Sm90Sanitize*, on all four tiles for f16 / s8 x u4. Timing: heuristic picks in CUDA graphs of
# 32 launches with --verify, then 128 x 128, 128 x 256 and 128 x 64 forced, ABBA; M = 24 / 48 / 160 / 1000 (tails),
# 256 (none: the control); f16 / s8 g128; 9 layers.
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 \
  AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk,128x256_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,48,160,256,1000 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 30 --verify" \
  AB_TEST_FILTER='Sm90.*:GemmApi.*:-Sm90Timing.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*' \
  AB_PASSES="t128x128:--schedule sm90_128x128_1x1x1_coop_splitk --graph-batch 32 --iters 30"
AB_PASSES+=";t128x256:--schedule sm90_128x256_1x1x1_coop_splitk --graph-batch 32 --iters 30"
AB_PASSES+=";t128x64:--schedule sm90_128x64_1x1x1_coop_splitk --graph-batch 32 --iters 30"
bash scripts/device_sm90_multi.sh "$D/tailbox_seg.patch"
