#!/usr/bin/env bash
# Session 84: two18.patch (kModelE4M3's 256 x 64 block at 1.8x a 128 x 64 one instead of 1.56, the value that ranks
# session 84's e4m3all table best: 2026-12-05-h100/s84-e4m3all/) against main, base v1 v1 base, heuristic plans
# (row split on), on the layers of the plan change that the fit never saw (bench/results/2026-12-05-cpu/s84-plan/:
# 1664 of 117760 e4m3 points move, all on these shapes or on the fitted ones) and the seed as a fitted control;
# e4m3 x u4b8 g128 and per-channel, event-timed at the moved M, then in CUDA graphs of 32 launches at M = 24 / 48 / 64 (trimmed to fit the session's last device minutes).
#   mkdir -p .s84 && cp bench/results/2026-12-05-h200/s84-next/two18.patch .s84/ && git rev-parse HEAD > .s84/commit.txt
#   bash bench/results/2026-12-05-h200/s84-next/ab_e4m3.sh      (repo root; device, carry .s84; ~4 min, estimate)
# On main after 8bf1205 (which holds the change): AB_PATCH=old156.patch, the variant being the ranking before it
# (cp bench/results/2026-12-05-h200/s84-next/old156.patch .s84/): the same A/B with the sides swapped.
S=${S:-.s84}
cd "$(dirname "$0")/../../../.."
SHAPES="--shape 3072x4096 --shape 8192x7168 --shape 7168x8192 --shape 16384x6656 --shape 3584x4096 --shape 4608x16384 --shape 16384x4096 --shape 14336x4096 --shape 1536x4096 --shape 9216x16384"
# The extra passes do not get AB_BENCH_EXTRA (scripts/device_sm90_multi.sh), so the graph pass names the shapes itself
# (session 84's run, before this line, timed its graph pass on the seed shape only).
export AB_SM90_TYPES=e4m3.u4 AB_SHAPES=seed \
  AB_MS=${AB_MS:-24,32,48,64,160,192,288,1088} \
  AB_TYPES=e4m3.u4b8.g128,e4m3.u4b8.gch AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="$SHAPES" \
  AB_PASSES="graph:--m 24,48,64 --graph-batch 32 --iters 40 $SHAPES"
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
timeout 580 bash scripts/device_sm90_multi.sh $S/${AB_PATCH:-two18.patch} 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed\|^custom" | tail -40
