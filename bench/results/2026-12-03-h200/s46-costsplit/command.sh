#!/usr/bin/env bash
# Session 46, call 6: the structure's cost split: main against (1) the row's compute removed (call 5's patch again, same
# run) and (2) that plus no deferred reduction grid (the kernel still stores its partial tiles), f16 x u4b8 g128 at the
# picks, CUDA graphs, with the bench's pure read.
AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=256x64_1x1x1_coop_splitk AB_SHAPES=llama3-8b,llama2-70b,seed AB_MS=1 \
AB_TYPES=f16.u4b8.g128 AB_SETTLE_MS=0 AB_BENCH_EXTRA="--graph-batch 32 --iters 40 --stream-read" \
  timeout 540 bash scripts/device_sm90_multi.sh .s46/ablate-rows.patch .s46/ablate-rows-noreduce.patch
