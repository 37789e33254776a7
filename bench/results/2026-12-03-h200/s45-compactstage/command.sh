#!/usr/bin/env bash
# Session 45 call 7: call 6 again, timing only, on a clean main (call 6's device tree already held the candidate, so
# its patch was skipped and its timing compared the candidate with itself; its suites and sanitizers ran on the candidate).
AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=256x64_1x1x1_coop_splitk \
AB_SHAPES=llama3-8b,llama2-70b,seed AB_MS=1,4,12 \
AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128,f16.u4b8.gch AB_SETTLE_MS=0 \
AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
  timeout 400 bash scripts/device_sm90_multi.sh .s45/compact-stage.patch
grep -h "" /tmp/multi/patch-*.log
