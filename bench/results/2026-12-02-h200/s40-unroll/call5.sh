#!/usr/bin/env bash
# Session 40, call 5: the TM 8 row loop unrolled by 2 / 4 (ILP across rows; session 5 kept it a loop)
# against main in one run (ABBA), CUDA graphs and event-timed (timing only: the tests run on a variant that wins).
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=llama3-8b,llama2-70b,seed \
  AB_MS=1,8 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
  AB_EVENT_TOO=1
bash scripts/device_sm90_multi.sh .s40/unroll2.patch .s40/unroll4.patch
