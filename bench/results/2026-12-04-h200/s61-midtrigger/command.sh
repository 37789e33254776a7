#!/usr/bin/env bash
# Session 61, call 2. Call 1 (ab_latetrigger.sh, ../s61-latetrigger/) found: letting the deferred reduction grid in at
# the gemm CTAs' final segment removes the placement effect event-timed (late_psnone / latetrigger alike) but costs
# 1-6% in CUDA graphs, where the early launch overlaps the gemm. Two points between entry and the end:
#   looptrigger:  after the prologue (ring and first stages requested), right before the chunk loop;
#   firsttrigger: after the CTA's first chunk is consumed.
# Each at main's placement and with psnone.patch (the loops moved). Question: does one keep main's graph time and
# time alike at both placements event-timed?
# ABBA over base + 4 variants, first in CUDA graphs of 32 launches, then event-timed (AB_EVENT_TOO).
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b AB_MS=1,4,8,16 \
  AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=50 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 40" AB_EVENT_TOO=1
bash scripts/device_sm90_multi.sh "$D/looptrigger.patch" "$D/looptrigger_psnone.patch" "$D/firsttrigger.patch" \
  "$D/firsttrigger_psnone.patch"
