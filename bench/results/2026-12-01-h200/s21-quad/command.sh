#!/usr/bin/env bash
# Session 21 call 3: quad-built e4m3 tables (wip/e4m3-quad-tables) vs main: tests, sanitizers, A/B.
set -uo pipefail
cd "$(dirname "$0")/.."
AB_SM90_TYPES=e4m3.u4 AB_SM90_SCHEDULES=128x256_1x1x1_coop_splitk AB_TYPES=e4m3.u4b8.g128,e4m3.u4b8.gch \
AB_MS=256,1024,8192 AB_SETTLE_MS=300 AB_BASELINES=cublaslt_fp8 \
AB_TEST_FILTER='ConvertGpu*:Sm90.W4A8_E4M3*:Sm90.TailSplit*:Sm90.StreamK*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*' \
  bash scripts/device_sm90_multi.sh .s21/quad.patch 2>&1 | tee $OUT/multi.txt
