#!/usr/bin/env bash
# Session 90: ask for an H200 without spending an H100's time. On an H200: session 89's H200 branch (adaptive89.sh:
# the s8 decode A/B at M = 12 / 16, then #8's e2e at batch 1; carry .s85, ~9 min); on any other card: nothing (every
# H100 question of the queue is answered, ../../2026-12-06-h100/), so a poll costs only the machine's start.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s90-next/poll90.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
S89_OTHER=../s90-next/none.sh exec bash bench/results/2026-12-06-h200/s89-next/adaptive89.sh
