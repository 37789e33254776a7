#!/usr/bin/env bash
# Session 53, device call 1 (run from the repository root on main 515432d, carry .s53):
#   mkdir -p .s53 && git diff main wip/sm90-tail-box > .s53/tailbox.patch && git rev-parse HEAD > .s53/commit.txt
S=.s53 bash bench/results/2026-12-03-h200/s52-tail/next-call.sh > $OUT/call1.txt 2>&1
