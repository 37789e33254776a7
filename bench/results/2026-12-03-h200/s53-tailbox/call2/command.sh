#!/usr/bin/env bash
# Session 53, device call 2 (same tree; .s53 also holds s52-tail/tailbox128.patch and s52-tail/shift.patch):
S=.s53 bash bench/results/2026-12-03-h200/s52-tail/next-call-128.sh > $OUT/call2.txt 2>&1
