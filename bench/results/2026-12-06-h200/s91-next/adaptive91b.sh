#!/usr/bin/env bash
# Session 91: as adaptive91.sh, with allsched91.sh on a card other than an H200 (carry .s91).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s91-next/adaptive91b.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh \
  'bash bench/results/2026-12-06-h200/s87-next/check_fuzz.sh' \
  'bash bench/results/2026-12-06-h200/s91-next/allsched91.sh'
