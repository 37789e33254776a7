#!/usr/bin/env bash
# Session 66 call 1: xover.patch (the smallm / sm90 crossover at M = 9..64 compares smallm's model with sm90's
# ranking-model time of its pick, margin 1.0; TM 32 row model refitted to s65-retime's graph tables: fixed 4.48 us,
# rows 0.615 / 0.663 us, 0.096 us per contributor) against main, base v1 v1 base, heuristic plans, on held-out layers:
# Llama-3-405B tp 8, Llama-2-13B, Qwen2-7B MLP, Qwen2-72B MLP; f16 / s8 / e4m3 x u4b8 g128; event-timed, then in CUDA
# graphs of 32 launches (pass "graph"), M = 9..64.
S=${S:-.s66}
SH="--tp 8 --shape 15360x5120 --shape 5120x5120 --shape 27648x5120 --shape 5120x13824 --shape 37888x3584 --shape 3584x18944 --shape 59136x8192 --shape 8192x29568"
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SHAPES=llama3-405b \
  AB_MS=9,12,16,20,24,28,32,40,48,64 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="$SH" \
  AB_PASSES="graph:$SH --graph-batch 32 --iters 40"
timeout 580 bash scripts/device_sm90_multi.sh $S/xover.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed\|^custom" | tail -60
