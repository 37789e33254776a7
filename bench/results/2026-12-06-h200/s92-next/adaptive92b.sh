#!/usr/bin/env bash
# Session 92's third call: on an H200 the queue's item 6 (../s90-next/graph200.sh); on any other card psums92.sh
# (gemm against gemm_partial_sums, Marlin, QQQ and a pure read at decode, CUDA graphs; carry .s91).
#   bash bench/results/2026-12-06-h200/s92-next/adaptive92b.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh 'TOTAL=${G200_TOTAL:-540} bash bench/results/2026-12-06-h200/s90-next/graph200.sh' \
  'bash bench/results/2026-12-06-h200/s92-next/psums92.sh'
