#!/usr/bin/env bash
# Session 89, third call: the H200 branch of adaptive89.sh (carry .s85); on any other card e2e-w4a8.sh (#8's harness
# with the W4A8 variants at batch 1).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s89-next/adaptive89c.sh      (repo root)
S89_OTHER=e2e-w4a8.sh exec bash "$(dirname "$0")/adaptive89.sh"
