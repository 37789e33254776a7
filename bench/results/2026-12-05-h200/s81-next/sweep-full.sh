#!/usr/bin/env bash
# Session 82, prepared (the s81-next queue's item 2): the bars' full sweep, M = 1..8192 on the seed shape and the
# Llama-2-70B layers, the six bar configs, cuBLAS fp16 / cuBLASLt fp8 in the same run: s65-sweep's bench command on main
# with sessions 66-81's tiles and rules, run through s77-next/sweep-small.sh with every M. On a warm machine that has
# build-sweep/ (h200-rest.sh builds the same target) the build is a no-op: ~7 min, ~9 with the build.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s81-next/sweep-full.sh     (repo root)
SWEEP_M=all SWEEP_NAME=sweep-full SWEEP_SUMMARY_M=${SWEEP_SUMMARY_M:-1,16,128,1024,8192} \
  exec bash "$(dirname "$0")/../s77-next/sweep-small.sh" "$@"
