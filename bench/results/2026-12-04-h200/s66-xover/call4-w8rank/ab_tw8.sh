#!/usr/bin/env bash
# Session 66 call 4: the 16-bit ranking with 8-bit weights (W8A16): kRankA16's 256 x 64 block factor 2.0 (tw8a.patch)
# or 2.1 (tw8b.patch) instead of 1.76 when the weights are 8-bit, against this tree, base v1 v2 v2 v1 base, heuristic
# plans, on held-out layers (Llama-3-405B tp 8, Llama-2-13B, Qwen2-7B / Qwen2-72B MLPs), f16 x u8b128 g128 and
# per-channel, M = 20..160; event-timed, then CUDA graphs of 32 launches at M = 20..128 (pass "graph").
S=${S:-.s66}
SH="--tp 8 --shape 15360x5120 --shape 5120x5120 --shape 27648x5120 --shape 5120x13824 --shape 37888x3584 --shape 3584x18944 --shape 59136x8192 --shape 8192x29568"
export AB_SM90_TYPES=f16.u8 AB_SHAPES=llama3-405b AB_MS=20,24,32,48,64,96,128,160 \
  AB_TYPES=f16.u8b128.g128,f16.u8b128.gch AB_SETTLE_MS=0 AB_BENCH_EXTRA="$SH" \
  AB_PASSES="graph:$SH --m 20,24,32,48,64,96,128 --graph-batch 32 --iters 40"
timeout 580 bash scripts/device_sm90_multi.sh $S/tw8a.patch $S/tw8b.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed\|^custom" | tail -30
