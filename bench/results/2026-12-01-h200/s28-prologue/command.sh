#!/usr/bin/env bash
# Session 28, device call 1: the smallm prologue candidates against main, in CUDA graphs (tests + sanitizers) and event-timed.
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=1,8 \
  AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0
O=$OUT
OUT=$O/graph AB_TEST_FILTER='Smallm.*:GemmApi.*:-SmallmTiming.*' AB_SANITIZE=1 AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
  timeout 420 bash scripts/device_sm90_multi.sh .s28/barinit.patch .s28/prologue2.patch 2>&1 | tee $O/graph.txt | grep -v "^bench "
echo "=== event-timed"
OUT=$O/event AB_BENCH_EXTRA="--iters 40" timeout 160 bash scripts/device_sm90_multi.sh .s28/barinit.patch .s28/prologue2.patch 2>&1 | tee $O/event.txt | grep -v "^bench "
