#!/usr/bin/env bash
# Session 39, call 6 (prepared, not run): TM 16's contributor term 3x for every type but e4m3 (tm16.patch) against main:
# heuristic picks, ABBA, in CUDA graphs and event-timed (AB_EVENT_TOO), on the Llama-3-8B and Llama-2-70B layers,
# M = 9 / 12 / 16, f16 / s8 x u4b8 g128 and f16 x u8b128 g128.
AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=llama3-8b,llama2-70b AB_MS=9,12,16 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,f16.u8b128.g128 AB_SETTLE_MS=0 AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
  AB_EVENT_TOO=1 timeout 400 bash scripts/device_sm90_multi.sh .s39/tm16.patch 2>&1 | tee $OUT/multi.txt | grep -v "^bench "
