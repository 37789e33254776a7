#!/usr/bin/env bash
# Prepared in session 60. The event timer's placement cost is paid at the stream launch of the deferred reduction
# grid (../s60-placement-graph/call6/). That grid is the gemm's programmatic dependent, and today every gemm CTA
# lets it in at entry (griddepcontrol.launch_dependents), so its CTAs can become resident beside the rows and run
# their prologue there. latetrigger.patch lets it in when a CTA reaches its final segment instead.
# Questions: (a) does latetrigger keep or beat main, event-timed and in graphs; (b) does the placement effect go
# (late_psnone against latetrigger, both modes)? psnone is the control: the effect as measured in session 60.
# ABBA: base latetrigger psnone late_psnone late_psnone psnone latetrigger base, first in CUDA graphs of 32 launches,
# then event-timed (AB_EVENT_TOO). f16 / bf16 / e4m3 g128, M = 1 / 4 / 8 / 16, seed + Llama-2-70B.
# Copy this folder to the session's .sN/ (carried), set .sN/commit.txt to HEAD, check the patches apply, then:
#   bash .sN/ab_latetrigger.sh        (~6-7 min; multi.tar.gz = graphs, event.tar.gz = event-timed)
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b AB_MS=1,4,8,16 \
  AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=50 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 40" AB_EVENT_TOO=1
bash scripts/device_sm90_multi.sh "$D/latetrigger.patch" "$D/psnone.patch" "$D/late_psnone.patch"
