#!/usr/bin/env bash
# Session 41, call 2: one n-block per warp and row (-DMIXGEMM_SMALLM_NBW=1) against main's two, at 8 and 16 warps per
# SM, in CUDA graphs. NBW=1 with 8 warps per CTA keeps the stripe count x CTAs (so the split-K contributors per stripe)
# of main's t8_w8_o1 while running two CTAs per SM: twice the warps per scheduler for the latency-bound row.
set -uo pipefail
cd "$(dirname "$0")/.."
SCHED_SHAPES=seed,llama2-70b,llama3-8b SCHED_MS=1,8 SCHED_TYPES=f16.u4b8.g128,s8.u4b8.g128 \
SCHED_BENCH_EXTRA="--graph-batch 32 --settle-ms 0" \
SCHED_TEST_FILTER='Smallm.W4A16_F16:Smallm.W4A8_S8:Smallm.StreamShapes:Smallm.RingWrap:Smallm.RealShape:Smallm.GraphReplay' \
timeout 590 bash scripts/device_smallm_sched.sh \
  "o1|-|smallm_t8_w8_o1_p0" "o2|-|smallm_t8_w8_o2_p0" "w4o4|-|smallm_t8_w4_o4_p0" \
  "n1o1|-DMIXGEMM_SMALLM_NBW=1|smallm_t8_w8_o1_p0" "n1o2|-DMIXGEMM_SMALLM_NBW=1|smallm_t8_w8_o2_p0" 2>&1 | tail -80
