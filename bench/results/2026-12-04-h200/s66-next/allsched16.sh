#!/usr/bin/env bash
# Prepared in session 66 (not run: no device was lent for it; copy to .sN/, set .sN/commit.txt, carry .sN): every smallm schedule and the sm90 64-token tiles
# (128 x 64, 256 x 64) at M = 4..16 on the narrow-N layers where sm90 now takes M = 17..32 (qkv at tp 4 / 8), f16 / s8
# x u4b8 g128, event-timed and in CUDA graphs: does sm90 win below the fixed smallm-only bound (M <= 16) there too?
ALLSCHED_SM90_TYPES=f16.u4,s8.u4 ALLSCHED_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk \
  ALLSCHED_TYPES=f16.u4b8.g128,s8.u4b8.g128 ALLSCHED_SHAPES=none ALLSCHED_EXTRA="--shape 768x4096 --shape 1536x4096 --shape 1280x8192 --shape 1920x5120 --shape 1152x3584" ALLSCHED_EVENT=1 ALLSCHED_EVENT_MS=4,8,12,16 \
  ALLSCHED_MS=4,8,12,16 ALLSCHED_TIMEOUT=60 timeout 200 bash scripts/device_allsched.sh nar16 2>&1 | tail -4
