#!/usr/bin/env bash
# Session 66 call 2: the smallm / sm90 crossover priced with sm90's ranking-model time of its pick (sm90_pick's
# ranked_us) instead of kModelA16's: s8rank.patch for s8 activations only, a16rank.patch for s8 and f16 / bf16;
# against main, base v1 v2 v2 v1 base, heuristic plans, on the unseen shapes where the patches change a pick
# (narrow N: qkv at tp 4 / 8 of Llama-3-8B, Llama-2-7B, Llama-2-70B, Llama-2-13B, Qwen2-7B), s8 g128 / per-channel
# and f16 g128, M = 17..32; event-timed, then in CUDA graphs of 32 launches (pass "graph").
S=${S:-.s66}
SH="--shape 768x4096 --shape 1536x4096 --shape 1280x8192 --shape 1920x5120 --shape 1152x3584"
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SHAPES=none \
  AB_MS=17,20,24,28,32 \
  AB_TYPES=s8.u4b8.g128,s8.u4b8.gch,f16.u4b8.g128 AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="$SH" \
  AB_PASSES="graph:$SH --graph-batch 32 --iters 40"
timeout 580 bash scripts/device_sm90_multi.sh $S/s8rank.patch $S/a16rank.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed\|^custom" | tail -40
