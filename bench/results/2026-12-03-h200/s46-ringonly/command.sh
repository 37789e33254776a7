#!/usr/bin/env bash
# Session 46, call 5: how fast does the library's own weight ring stream without the row's compute? main against
# .s46/ablate-rows.patch (the TM 8/16 row loop keeps its mbarrier waits and its 16-byte shared loads of the weights,
# drops scales, B fragments, conversion and MMA; wrong results on purpose), at the heuristic's picks, f16 x u4b8 g128,
# CUDA graphs, with the bench's pure-read rows (--stream-read) in the same runs.
AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=256x64_1x1x1_coop_splitk AB_SHAPES=llama3-8b,llama2-70b,seed AB_MS=1,8 \
AB_TYPES=f16.u4b8.g128 AB_SETTLE_MS=0 AB_BENCH_EXTRA="--graph-batch 32 --iters 40 --stream-read" \
  timeout 540 bash scripts/device_sm90_multi.sh .s46/ablate-rows.patch
