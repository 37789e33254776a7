#!/usr/bin/env bash
# Session 90's later polls: on an H200 session 89's H200 branch (as poll90.sh), on any other card rowsplit90.sh (the row
# split rule re-timed on today's kernels; carry .s85 and .s90).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s90-next/poll90b.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
S89_OTHER=../s90-next/rowsplit90.sh exec bash bench/results/2026-12-06-h200/s89-next/adaptive89.sh
