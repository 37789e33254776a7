#!/usr/bin/env bash
# Session 22 call 6: the sm90 epilogue staged by stmatrix (wip/sm90-stmatrix-epilogue) against main:
# full sm90 instance set, the Sm90 and Gemm GPU suites and the sm90 sanitizer cases on the candidate,
# then f16 / s8 / e4m3 g128 at M = 256 / 1024 / 8192 on seed + Llama-2-70B.
set -uo pipefail
cd "$(dirname "$0")/.."
AB_SM90_TYPES=f16.u4,bf16.u4,f16.u8,bf16.u8,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= \
AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_MS=256,1024,8192 AB_SETTLE_MS=150 \
AB_TEST_FILTER='Sm90*:Gemm*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*' \
  bash scripts/device_sm90_multi.sh .s22/stm.patch 2>&1 | tee $OUT/multi.txt
