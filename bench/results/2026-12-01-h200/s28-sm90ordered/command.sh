#!/usr/bin/env bash
# Session 28, device call 4: ordered conversion (wip/sm90-ordered) against main on the block-issue sm90 tiles
# (256 x 64, 128 x 64, 128 x 128), heuristic picks at M = 32 / 64 / 128; Sm90 GPU suite + memcheck / racecheck.
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=32,64,128 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=50 \
  AB_TEST_FILTER='Sm90.*:Sm90Sanitize.*:-Sm90Timing.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.*'
timeout 570 bash scripts/device_sm90_multi.sh .s28/ordered.patch 2>&1 | grep -v "^bench "
