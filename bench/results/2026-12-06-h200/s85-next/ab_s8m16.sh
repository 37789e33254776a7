#!/usr/bin/env bash
# Session 85: s8m16.patch (grouped s8 x u4 at smallm's TM 16 M = 9..16 runs sm90's 256 x 16 on layers of >= 64 Mi
# weights, the large-layer decode rule's form) against main, base v1 v1 base, heuristic plans, on ten held-out layers of
# 64-462 Mi weights (Llama-3-405B at tp 4 / 8, Llama-2-13B, Qwen2-72B) and the bars' shapes (seed, Llama-2-70B: fitted),
# s8 x u4b8 g128 at M = 9, 12, 16: event-timed (20 iterations, cold L2), then CUDA graphs of 32 launches.
# Fitted on `2026-12-06-cpu/s85-s8m16/` (the H200 table of s81-narrow/: 0.954x over seven layers at M = 16; the H100's
# s79-narrow/ table 0.999x). Worth running on an H200 only.
#   mkdir -p .s85 && cp bench/results/2026-12-06-h200/s85-next/s8m16.patch .s85/ && git rev-parse HEAD > .s85/commit.txt
#   bash bench/results/2026-12-06-h200/s85-next/ab_s8m16.sh      (repo root; device, carry .s85; ~3-4 min, estimate)
S=${S:-.s85}
cd "$(dirname "$0")/../../../.."
SHAPES="--shape 4608x16384 --shape 16384x4096 --shape 13312x16384 --shape 16384x6656 --shape 9216x16384 --shape 15360x5120 --shape 27648x5120 --shape 5120x13824 --shape 59136x8192 --shape 8192x29568"
# The extra passes do not get AB_BENCH_EXTRA (scripts/device_sm90_multi.sh), so the graph pass names the shapes itself.
export AB_SM90_TYPES=s8.u4 AB_SM90_SCHEDULES=256x16_1x1x1_coop_splitk,256x32_1x1x1_coop_splitk,128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b AB_MS=${AB_MS:-9,12,16} AB_TYPES=s8.u4b8.g128 AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="$SHAPES" \
  AB_PASSES="graph:--graph-batch 32 --iters 40 $SHAPES"
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
timeout 560 bash scripts/device_sm90_multi.sh $S/${AB_PATCH:-s8m16.patch} 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed\|^custom" | tail -30
