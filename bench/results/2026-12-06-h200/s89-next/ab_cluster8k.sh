#!/usr/bin/env bash
# Session 89, prepared: cluster8k.patch (smallm's cluster split-K also on stripes of more than 64 k-blocks, i.e. K > 4096
# for 4-bit weights, wherever it keeps >= 70% of the CTAs and its clusters are resident; the DSMEM reduction then
# replaces the deferred reduction grid, 1.2-2.9 us of work per launch in CUDA graphs, s41-reduce-diag) against main,
# base v1 v1 base, heuristic plans (`mixgemm-bench --plan` of a CPU build with the s8 x u4 sm90 instances: the patch moves 25
# of 342 M = 1 / 4 / 8 plans, f16 / s8 / e4m3 per-channel on these and other shapes, to another schedule, since the
# smallm model prices the cluster geometry), f16 / s8 x u4b8 g128, M = 1 / 4 / 8:
# event-timed (20 iterations, cold L2), then CUDA graphs of 32 launches, then one pass with MIXGEMM_PRINT_CONFIG=1 whose
# bench output says which split each launch ran (the launcher falls back to the plain split where the clusters are not
# all resident; the patch prints why, a diagnostic line not for merging: session 41's forced run, s41-cluster, was
# refused on every K > 4096 layer for a reason it did not print). Shapes: the bars' (seed, Llama-2-70B), and held-out
# K > 4096 layers: 13B o (5120 x 5120), 13B-like qkv (15360 x 5120), Qwen2-72B down (8192 x 29568), 70B gate_up at tp 8
# (7168 x 8192), 405B qkv (18432 x 16384). Session 8 measured the K >= 8192 layers at 0.98-1.05x against the in-kernel tail of its time (s8-cluster2); the plain
# split's tail has been the deferred grid since session 38. Runs on an H100 or an H200 (~7-8 min, estimate).
#   mkdir -p .s89 && cp bench/results/2026-12-06-h200/s89-next/cluster8k.patch .s89/ && git rev-parse HEAD > .s89/commit.txt
#   bash bench/results/2026-12-06-h200/s89-next/ab_cluster8k.sh      (repo root; device, carry .s89)
# Merge only if the moved points are faster in graphs and not slower event-timed, and the held-out layers agree; then
# the patch's test change stands and the geometry comment gets the measurement.
S=${S:-.s89}
cd "$(dirname "$0")/../../../.."
SHAPES="--shape 5120x5120 --shape 15360x5120 --shape 8192x29568 --shape 7168x8192 --shape 18432x16384"
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES=256x16_1x1x1_coop_splitk,256x32_1x1x1_coop_splitk,128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b AB_MS=${AB_MS:-1,4,8} AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="$SHAPES" \
  AB_PASSES="graph:--graph-batch 32 --iters 40 $SHAPES;cfg:MIXGEMM_PRINT_CONFIG=1 --iters 1 --warmup 0 --cold-l2 off $SHAPES"
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
timeout 560 bash scripts/device_sm90_multi.sh $S/cluster8k.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed\|^custom" | tail -30
# Which split each (variant, shape, M) ran: gemm()'s line paired with the smallm launcher's.
for f in /tmp/multi-cfg/*-1.txt; do
  awk -v v="$(basename "$f" -1.txt)" '/^\[mixgemm\] M=/ { call = $2 " " $3 " " $4 } /^\[mixgemm\]   smallm/ { sub(/^\[mixgemm\]   /, ""); print v ": " call ": " $0 }' "$f"
done 2>/dev/null | sort | uniq -c | head -60
