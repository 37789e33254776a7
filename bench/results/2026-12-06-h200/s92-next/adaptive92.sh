#!/usr/bin/env bash
# Session 92's first call: on an H200 the queue's item 6 (the #6 decode points in CUDA graphs, ../s90-next/graph200.sh,
# ~6 min from a fresh machine); on any other card what session 91's check left (../s91-next/check91b.sh: the wide
# activation-quant fuzz and pytest on today's tree, ~4-5 min).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s92-next/adaptive92.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh 'TOTAL=550 bash bench/results/2026-12-06-h200/s90-next/graph200.sh' \
  'bash bench/results/2026-12-06-h200/s91-next/check91b.sh'
