#!/usr/bin/env bash
# Session 33 call 1 (device, carry .s33; .s33/commit.txt = 91e3fbd, branch wip/row-split checked out):
S=.s33 bash bench/results/2026-12-02-h200/s32-next/next-calls.sh rowsplit
