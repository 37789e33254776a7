#!/usr/bin/env bash
# Prepared in session 62 for the next session: one smallm kernel per variant (scale mode x weight bias; branch
# wip/smallm-variant-kernels, variantkernels.patch = its diff against main) against main, whose TM 8 kernel holds all six
# variants' chunk loops (22720 SASS instructions; a variant kernel is 4152-4312). Why: ncu's warm-cache profile of
# session 41 (bench/results/2026-12-02-h200/s41-ncu/, read with scripts/ncu_summary.py --by-exec) has 28-32% of a
# t8_w8_o1 launch's stall samples in instruction fetch (no_inst), on the once-per-warp prologue (272 instructions) and
# the chunk top (53), and session 62's TM 16 unroll (s62-tm16unroll/) gained 5-13% in graphs on the small layers by
# shrinking the code a launch runs. Also checks: the Smallm suites for every type and schedule, the sanitizer cases,
# every bench row verified. ABBA in CUDA graphs of 32 launches with --verify, then event-timed; M = 1 / 4 / 8 (TM 8) and
# 16 (TM 16); f16 / s8 / e4m3 g128, f16 per-channel (variant 0), f16 u4 with zero points (variant 3).
# Copy this folder to the session's .sN/ (carried), set .sN/commit.txt to HEAD, check that the patch applies, then:
#   bash .sN/ab_variantkernels.sh       (~7-8 min)
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b \
  AB_MS=1,4,8,16 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128,f16.u4b8.gch,f16.u4.g128 AB_SETTLE_MS=50 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 40 --verify" AB_EVENT_TOO=1 \
  AB_TEST_FILTER='Smallm.*:SmallmHost*:SmallmSanitize*:GemmApi.Programmatic*' AB_SANITIZE=1 \
  AB_SANITIZE_FILTER='SmallmSanitize*'
bash scripts/device_sm90_multi.sh "$D/variantkernels.patch"
