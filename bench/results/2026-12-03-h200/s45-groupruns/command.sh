#!/usr/bin/env bash
# Session 45 call 4: smallm TM 8 rows in group runs (.s45/group-runs.patch, branch wip/smallm-group-runs) against
# main at the heuristic's picks, CUDA graphs, plus the candidate's Smallm / GemmApi suites and the smallm sanitizer cases.
AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=256x64_1x1x1_coop_splitk \
AB_SHAPES=llama3-8b,llama2-70b,seed AB_MS=1,8 \
AB_TYPES=f16.u4b8.g128,f16.u4.g128,f16.u4b8.g64,s8.u4b8.g128,e4m3.u4b8.g128,f16.u8b128.g128 AB_SETTLE_MS=0 \
AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
AB_TEST_FILTER='Smallm*:GemmApi.*:-SmallmTiming.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='SmallmSanitize*' \
  timeout 540 bash scripts/device_sm90_multi.sh .s45/group-runs.patch
