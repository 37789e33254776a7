#!/usr/bin/env bash
# Session 32 call 1 (device, carry .s32; .s32/commit.txt = main's HEAD):
S=.s32 bash bench/results/2026-12-02-h200/s31-final/next-calls.sh check
