#!/usr/bin/env bash
# Session 91: ask for an H200 without spending an H100's time. On an H200: the full GPU check of today's tree (the
# queue's item 5, ../s87-next/check_fuzz.sh, ~8-9 min; the last H200 one is session 73's); on any other card: nothing.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s91-next/poll91.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh \
  'bash bench/results/2026-12-06-h200/s87-next/check_fuzz.sh'
