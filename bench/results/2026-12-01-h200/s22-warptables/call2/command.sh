#!/usr/bin/env bash
# Session 22 call 2: warp tables with (wt) and without (wt0) the early next-block load, against main,
# e4m3 g128 at M = 1024..8192 on seed, Llama-2-70B and a half-width gate_up (why 70B gate_up M = 1024 slows).
set -uo pipefail
cd "$(dirname "$0")/.."
AB_SM90_TYPES=e4m3.u4 AB_SM90_SCHEDULES=128x256_1x1x1_coop_splitk AB_TYPES=e4m3.u4b8.g128 \
AB_SHAPES=seed,llama2-70b AB_BENCH_EXTRA="--shape 28672x8192" AB_MS=1024,2048,4096,8192 AB_BASELINES=cublaslt_fp8 AB_SETTLE_MS=300 \
AB_TEST_FILTER='ConvertGpu*:Sm90.W4A8_E4M3*:Sm90.TailSplit*:Sm90.StreamK*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*' \
  bash scripts/device_sm90_multi.sh .s22/wt.patch .s22/wt0.patch 2>&1 | tee $OUT/multi.txt
