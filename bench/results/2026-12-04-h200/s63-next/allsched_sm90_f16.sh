#!/usr/bin/env bash
# Prepared in session 63 (not run): every sm90 tile and smallm schedule for f16 x u4b8 g128 on the current kernels,
# the data for refitting the 16-bit sm90 time model (kModelA16 in src/kernels/sm90/sm90_heuristic.cpp), whose block
# times date from session 2's kernels: at M = 24..128 it predicts 1.5-1.7x the measured time of the 128 x 64 tile,
# 1.35-1.43x of 256 x 64 and 1.25-1.32x of 128 x 128 (session 63, ../s63-allsched24-128/), and the picks there take
# 1.020x (graphs) / 1.011x (event) the fastest time, worst 1.15-1.23x. The model also sets every split and the
# smallm / sm90 crossover. 13 layers (Llama-3-8B, Llama-2-7B, Llama-2-70B, seed); event-timed at M = 24..768, in
# CUDA graphs of 32 launches at M = 24..128; outputs $OUT/f16all-*.gz and f16all-plan.csv. ~6-7 min (session 31's
# event-timed all-schedules run of 8 M >= 160 for two types took 170 s).
#   copy this folder to .sN/, set .sN/commit.txt to HEAD, then: bash .sN/allsched_sm90_f16.sh   (carry .sN)
ALLSCHED_SM90_TYPES=f16.u4 ALLSCHED_SM90_SCHEDULES=all ALLSCHED_TYPES=f16.u4b8.g128 \
  ALLSCHED_SHAPES=llama3-8b,llama2-7b,llama2-70b,seed ALLSCHED_EVENT=1 \
  ALLSCHED_EVENT_MS=24,32,48,64,96,128,160,192,256,384,512,768 ALLSCHED_MS=24,32,48,64,96,128 \
  ALLSCHED_TIMEOUT=200 bash "$(dirname "$0")/../scripts/device_allsched.sh" f16all
