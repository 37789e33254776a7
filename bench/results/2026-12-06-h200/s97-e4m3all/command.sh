#!/usr/bin/env bash
# Session 82, prepared: every sm90 tile and smallm schedule forced for e4m3 x u4b8 g128 on session 65's 13 layers, the
# table session 65 timed for f16 and s8 (2026-12-04-h200/s65-retime/call2-f16all, call3-s8all) and never for e4m3:
# kModelE4M3's block times are session 32's / 53's, measured at M = 160..768 before session 78's fp8 promotion made the
# tiles below 128 x 256 1-4% dearer, and on the H200 (s81-narrow/narrow_table.txt) its ranking sends M = 48 to 256 x 64
# where 128 x 64 took 0.83-0.93x the time (Llama-3-8B / Llama-2-7B qkv, Llama-2-70B o). Event-timed at M = 24..768,
# CUDA graphs at M = 24..128; then refit as s65-retime/analysis does (blocks.py, grid.py; pick_vs_best.cpp), and A/B
# on held-out layers before merging. ~7-8 min on an H200 or an H100 (the ranking's constants are the H200's).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s81-next/e4m3all.sh    (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
mkdir -p .s82 && echo "${MIXGEMM_GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}" > .s82/commit.txt
ALLSCHED_SM90_TYPES=e4m3.u4 ALLSCHED_SM90_SCHEDULES=all ALLSCHED_TYPES=e4m3.u4b8.g128 \
  ALLSCHED_SHAPES=llama3-8b,llama2-7b,llama2-70b,seed ALLSCHED_EVENT=1 \
  ALLSCHED_EVENT_MS=24,48,64,96,128,144,160,192,224,256,320,384,512,768 ALLSCHED_MS=24,32,48,64,96,128 \
  ALLSCHED_TIMEOUT=280 bash scripts/device_allsched.sh e4m3all
