#!/usr/bin/env bash
# Session 40, call 3: the deferred split-K reduction grid loading 16 / 32 contributors per round trip
# instead of 8 (a stripe of the Llama-3-8B o / down and Llama-2-70B decode launches has 9-10
# contributors: two dependent L2 round trips with 8). Against main in one run (ABBA), CUDA graphs and
# event-timed (timing only: the tests run on a variant that wins).
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=llama3-8b,llama2-70b,seed \
  AB_MS=1,8 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
  AB_EVENT_TOO=1
bash scripts/device_sm90_multi.sh .s40/batch16.patch .s40/batch32.patch
