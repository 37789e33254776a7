#!/usr/bin/env bash
# Session 45 call 6: smallm compact activation stages at M < TM (TM <= 16): the M token rows and one zero row per
# stage instead of TM rows; the freed shared memory deepens the weight ring (t8_w4_o4 at M = 1: 9 -> 12 rows).
# .s45/compact-stage.patch against main at the heuristic's picks, CUDA graphs, plus the candidate's Smallm / GemmApi
# suites and the smallm sanitizer cases.
AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=256x64_1x1x1_coop_splitk \
AB_SHAPES=llama3-8b,llama2-70b,seed AB_MS=1,4,12 \
AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128,f16.u4b8.gch AB_SETTLE_MS=0 \
AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
AB_TEST_FILTER='Smallm*:GemmApi.*:-SmallmTiming.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='SmallmSanitize*' \
  timeout 500 bash scripts/device_sm90_multi.sh .s45/compact-stage.patch
