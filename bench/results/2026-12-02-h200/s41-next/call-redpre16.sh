#!/usr/bin/env bash
# Prepared in session 41, not run: the reduction grid's first batch at 16 contributors (redpre16.patch: offsets of
# up to 16 contributors computed before griddepcontrol.wait, their loads in flight together; 88 registers, 8.7 KB of
# shared memory) against main, in CUDA graphs, with the candidate's Smallm suites and the PDL test. The o2 / o4
# schedules have 9-16 contributors per stripe on most large layers, i.e. two load round trips with main's 8.
# Write the host's HEAD to bench/results/2026-12-02-h200/s41-next/commit.txt first (the base of the A/B).
cd "$(dirname "$0")/../../../.."
AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=llama3-8b,llama2-70b,seed AB_MS=1,8,16 \
AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 AB_BENCH_EXTRA="--graph-batch 32 --iters 40" AB_EVENT_TOO=1 \
AB_TEST_FILTER='Smallm.W4A16_F16:Smallm.W4A16_BF16:Smallm.W4A8_S8:Smallm.W4A8_E4M3:Smallm.StreamShapes:Smallm.RealShape:Smallm.GraphReplay:GemmApi.ProgrammaticDependentLaunchWaitsForItsProducer' \
AB_SANITIZE=1 AB_SANITIZE_FILTER='SmallmSanitize*' \
timeout 560 bash scripts/device_sm90_multi.sh bench/results/2026-12-02-h200/s41-next/redpre16.patch 2>&1 | tail -70
