#!/usr/bin/env bash
# Session 22 call 1: the two prepared e4m3 table-build branches (quad-shared + early load; warp tables + early load) against main.
set -uo pipefail
cd "$(dirname "$0")/.."
AB_SM90_TYPES=e4m3.u4 AB_SM90_SCHEDULES=128x256_1x1x1_coop_splitk AB_TYPES=e4m3.u4b8.g128,e4m3.u4b8.gch \
AB_MS=256,1024,8192 AB_SETTLE_MS=300 \
AB_TEST_FILTER='ConvertGpu*:Sm90.W4A8_E4M3*:Sm90.TailSplit*:Sm90.StreamK*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*' \
  bash scripts/device_sm90_multi.sh .s22/qe.patch .s22/wt.patch 2>&1 | tee $OUT/multi.txt
