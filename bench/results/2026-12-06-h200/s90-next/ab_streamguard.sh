#!/usr/bin/env bash
# Session 90, any card: streamguard.patch (sm90_split does not stream-K where the operand bytes its desynchronized CTAs
# keep live exceed the 50 MiB L2: sm90_stream_live_bytes) against main, base v1 v1 base through gemm() (the heuristic's
# picks, row split on), event-timed, cold L2, then one --verify pass (both builds against the CPU reference).
# Shapes: every layer of a 26-layer scan (Llama-3 / Qwen2 / Gemma-2 / Phi-3 / Yi / DeepSeek-V2-Lite, tp 1..8, M = 96..8192,
# f16 / s8 / e4m3) whose plan the patch changes, 27 of 1 872 points, all long-K down projections at M = 640..3200:
# Qwen2-7B down 3584 x 18944 and Llama-3-405B qkv at tp 8 (2304 x 16384, session 90's streamk90 grid, where it was
# found), and held out Gemma-2-27B down 4608 x 36864, Gemma-2-9B down 3584 x 14336, Phi-3-medium down 5120 x 17920,
# Qwen2.5-32B down 5120 x 27648, Llama-2-13B down 5120 x 13824, Yi-34B down 7168 x 20480, DeepSeek-V2-Lite down
# 2048 x 10944. M = 640, 1200, 1400, 1800, 2048, 3200 (the unchanged points are the control). ~5-6 min.
#   mkdir -p .s90 && git diff > .s90/streamguard.patch && git rev-parse HEAD > .s90/commit.txt && git stash   (host)
#   bash bench/results/2026-12-06-h200/s90-next/ab_streamguard.sh      (repo root; device, carry .s90)
# Since 4b99baf main has the guard: AB_PATCH=$S/noguard.patch (noguard.patch of this folder: the guard off) times main
# against the tree without it (ratios the other way round), and AB_SHAPES_SET=llama3-405b/qkv keeps to the one
# Llama-3-405B layer it moves (the run of s90-streamguard/ took all four and hit the cap):
#   mkdir -p .s90 && cp bench/results/2026-12-06-h200/s90-next/noguard.patch .s90/ && git rev-parse HEAD > .s90/commit.txt
#   AB_PATCH=.s90/noguard.patch AB_SHAPES_SET=llama3-405b/qkv bash bench/results/2026-12-06-h200/s90-next/ab_streamguard.sh
S=${S:-.s90}
cd "$(dirname "$0")/../../../.."
SHAPES="--shape 3584x18944 --shape 4608x36864 --shape 3584x14336 --shape 5120x17920 --shape 5120x27648 --shape 5120x13824 --shape 7168x20480 --shape 2048x10944"
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk,128x256_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk \
  AB_SHAPES=${AB_SHAPES_SET:-llama3-405b} AB_MS=${AB_MS:-640,1200,1400,1800,2048,3200} AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 \
  AB_BENCH_EXTRA="--tp 8 $SHAPES" AB_PASSES="verify:--iters 2 --warmup 1 --verify --verify-rows 8 --tp 8 $SHAPES"
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
timeout 570 bash scripts/device_sm90_multi.sh ${AB_PATCH:-$S/streamguard.patch} 2>&1 | grep -v "^bench " | tail -40
grep -h -c ",fail" /tmp/multi-verify/*.csv 2>/dev/null | paste -sd' ' | sed 's/^/verify fail rows per run: /'
grep -h -c ",pass" /tmp/multi-verify/*.csv 2>/dev/null | paste -sd' ' | sed 's/^/verify pass rows per run: /'
