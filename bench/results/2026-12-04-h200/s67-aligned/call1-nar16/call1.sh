#!/usr/bin/env bash
# Session 67 call 1 (from s66-next/allsched16.sh, widened): every smallm schedule and the sm90 64-token tiles
# (128 x 64, 256 x 64) at M = 4..16 on narrow-N layers: the five of s66-xover/call2-ranked (fit) and four held out
# (405B tp8 qkv 2304x16384, Llama-3-8B tp2 qkv 3072x4096, Qwen2.5-7B tp2 qkv 2304x3584, Qwen2.5-14B tp8 qkv 896x5120),
# f16 / s8 x u4b8 g128, event-timed and in CUDA graphs. Question: does sm90 win below the smallm-only bound (M <= 16)?
cd "$(dirname "$0")/.."
ALLSCHED_SM90_TYPES=f16.u4,s8.u4 ALLSCHED_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk \
  ALLSCHED_TYPES=f16.u4b8.g128,s8.u4b8.g128 ALLSCHED_SHAPES=none \
  ALLSCHED_EXTRA="--shape 768x4096 --shape 1536x4096 --shape 1280x8192 --shape 1920x5120 --shape 1152x3584 --shape 2304x16384 --shape 3072x4096 --shape 2304x3584 --shape 896x5120" \
  ALLSCHED_EVENT=1 ALLSCHED_EVENT_MS=4,8,12,16 ALLSCHED_MS=4,8,12,16 ALLSCHED_TIMEOUT=170 \
  timeout 520 bash scripts/device_allsched.sh nar16 2>&1 | tail -4
