#!/usr/bin/env bash
# Prepared in session 63 (not run): the exact TMA box for a partial last 64-token tile (tailbox64.patch = branch
# wip/sm90-tail-box64 against main: 128 x 64 and 256 x 64 load only the M % 64 rows that exist once a stage's block
# slot holds zeros past M, as the 256-token tile has since session 52) against main. Why: in session 63's tables
# (../s63-allsched24-128/, ../s63-allsched32/) 128 x 64 at M = 24 takes 1.06-1.20x its own time at M = 64 on the narrow
# layers for f16 (Llama-2-7B / Llama-3-8B qkv, Llama-2-70B o, Llama-3-8B gate_up), where 256 x 64 takes 0.92-0.95x.
# Checks: Sm90.* (TailTokenTile covers every tile at M = 2T+1, 2T+8, 3T-1 on 4 SMs) and GemmApi.*, memcheck and
# racecheck of Sm90Sanitize*; ABBA at the heuristic's picks in CUDA graphs of 32 launches with --verify, then
# event-timed; M = 24 / 32 / 48 (one partial 64-token tile), 64 (none: the control), 96 (128 x 64: a partial second
# tile); f16 / s8 g128; 128 x 128 (unchanged SASS) built as the control tile. ~9 min.
#   copy this folder to .sN/, set .sN/commit.txt to HEAD, git apply --check .sN/tailbox64.patch, then
#   bash .sN/ab_tailbox64.sh   (carry .sN)
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 \
  AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,32,48,64,96 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=50 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 40 --verify" AB_EVENT_TOO=1 \
  AB_TEST_FILTER='Sm90.*:GemmApi.*:-Sm90Timing.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*'
bash scripts/device_sm90_multi.sh "$D/tailbox64.patch"
