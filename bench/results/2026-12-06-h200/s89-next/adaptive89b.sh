#!/usr/bin/env bash
# Session 89, second call: the H200 branch of adaptive89.sh (carry .s85); on any other card h100-rest2.sh (a launch's
# cost beyond its bytes on that card, then #8's harness at batch 1 / 8 / 32).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s89-next/adaptive89b.sh      (repo root)
S89_OTHER=h100-rest2.sh exec bash "$(dirname "$0")/adaptive89.sh"
