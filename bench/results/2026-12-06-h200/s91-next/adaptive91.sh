#!/usr/bin/env bash
# Session 91: one call for whichever card comes. H200: the full GPU check of today's tree (the queue's item 5,
# ../s87-next/check_fuzz.sh, ~8-9 min; the last H200 one is session 73's). Other card: refs91.sh (mixgemm against
# Marlin and QQQ on that card, ~9 min; carry .s91).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s91-next/adaptive91.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh \
  'bash bench/results/2026-12-06-h200/s87-next/check_fuzz.sh' \
  'bash bench/results/2026-12-06-h200/s91-next/refs91.sh'
