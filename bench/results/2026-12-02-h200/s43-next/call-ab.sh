#!/usr/bin/env bash
# Session 43's prepared call 1 (not run): the smallm e4m3 group tables (e4m3-tables.patch = the first commit of
# branch wip/smallm-e4m3-tables) and the tables with TM 8's direct B fragments (e4m3-tables-directb.patch = both
# commits) against main at the heuristic's picks, in CUDA graphs and event-timed, with each candidate's Smallm /
# GemmApi suites and the smallm sanitizer cases. ~150 s after the start.
# From the repository root on the device, with .sN/commit.txt = main's HEAD and the patches copied to .sN/ (carry .sN):
#   mkdir -p .s44 && git rev-parse HEAD > .s44/commit.txt && cp bench/results/2026-12-02-h200/s43-next/*.patch .s44/
#   bash bench/results/2026-12-02-h200/s43-next/call-ab.sh .s44/e4m3-tables.patch .s44/e4m3-tables-directb.patch
AB_SM90_TYPES=e4m3.u4 AB_SM90_SCHEDULES=256x64_1x1x1_coop_splitk \
AB_SHAPES=llama3-8b,llama2-7b,llama2-70b,seed AB_MS=1,4,8 \
AB_TYPES=e4m3.u4b8.g128,e4m3.u4.g128,e4m3.u4b8.g64 AB_SETTLE_MS=0 \
AB_BENCH_EXTRA="--graph-batch 32 --iters 40" AB_EVENT_TOO=1 \
AB_TEST_FILTER='Smallm*:GemmApi.*:-SmallmTiming.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='SmallmSanitize*' \
  bash scripts/device_sm90_multi.sh "$@"
