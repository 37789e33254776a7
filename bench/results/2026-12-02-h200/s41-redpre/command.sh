#!/usr/bin/env bash
# Session 41, call 7: the reduction grid's parameter-only work (first batch's partial offsets, the descriptor's
# parameter line) done before griddepcontrol.wait (.s41/redpre.patch) against main, CUDA graphs, heuristic picks;
# the candidate's Smallm suites (bitwise deferred == in-kernel reduction among them) and the PDL tests.
cd "$(dirname "$0")/.."
AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=llama3-8b,llama2-70b,seed AB_MS=1,8 \
AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
AB_TEST_FILTER='Smallm.W4A16_F16:Smallm.W4A16_BF16:Smallm.W4A8_S8:Smallm.StreamShapes:Smallm.RealShape:Smallm.GraphReplay:GemmApi.ProgrammaticDependentLaunchWaitsForItsProducer' \
timeout 200 bash scripts/device_sm90_multi.sh .s41/redpre.patch 2>&1 | tail -60
