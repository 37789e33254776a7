#!/usr/bin/env bash
# Session 65 call 4: rankown.patch (sm90_pick ranks each tile by the split it runs at every M; 16-bit activations on
# kRankA16) against main, base v1 v1 base, heuristic plans (row split on), on shapes the constants were not chosen on:
# Llama-3-405B at tp 8, Llama-2-13B, Qwen2-7B MLP, Qwen2-72B MLP (session 54's held-out grid), f16 / s8 / e4m3 x u4b8
# g128; event-timed at M = 24..1200, then in CUDA graphs of 32 launches at M = 24..128 (pass "graph").
S=${S:-.s65}
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SHAPES=llama3-405b \
  AB_MS=24,48,64,96,128,160,192,256,320,384,512,768,1200 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="--tp 8 --shape 15360x5120 --shape 5120x5120 --shape 27648x5120 --shape 5120x13824 --shape 37888x3584 --shape 3584x18944 --shape 59136x8192 --shape 8192x29568" \
  AB_PASSES="graph:--m 24,48,64,96,128 --graph-batch 32 --iters 40"
timeout 580 bash scripts/device_sm90_multi.sh $S/rankown.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed\|^custom" | tail -40
