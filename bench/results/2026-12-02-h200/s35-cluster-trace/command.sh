#!/usr/bin/env bash
# Session 35 call 5 (its last device minutes), from the repository root on the device, .s35 carried with
# .s35/cluster.patch = ../s35-cluster-exchange/cluster.patch; trace-call.sh is the script as it was run (the first
# version of ../s35-next/next-call.sh).
S=.s35 TR_TYPES=e4m3.u4 TR_SHAPES=llama2-70b TR_BENCH_TYPES=e4m3.u4b8.g128 timeout 160 bash bench/results/2026-12-02-h200/s35-cluster-trace/trace-call.sh
