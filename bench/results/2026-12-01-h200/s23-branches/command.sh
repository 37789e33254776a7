#!/usr/bin/env bash
# Session 23 call 1: the two prepared sm90 branches against main in one run:
# pair = wip/sm90-cluster-pair (a 128x256 tile's two k-parts on a 2-CTA cluster, DSMEM reduction),
# tma  = wip/sm90-tma-store (epilogue copy-out by TMA stores).
# Full sm90 instance set; Sm90*/Gemm* suites and Sm90Sanitize* memcheck/racecheck on both candidates;
# f16 / s8 / e4m3 g128 at M = 160 / 256 / 512 / 1024 / 8192 on seed + Llama-2-70B.
set -uo pipefail
cd "$(dirname "$0")/.."
AB_SM90_TYPES=f16.u4,bf16.u4,f16.u8,bf16.u8,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= \
AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_MS=160,256,512,1024,8192 AB_SETTLE_MS=150 \
AB_TEST_FILTER='Sm90*:Gemm*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*' \
  bash scripts/device_sm90_multi.sh .s23/pair.patch .s23/tma.patch 2>&1 | tee $OUT/multi.txt
