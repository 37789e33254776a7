#!/usr/bin/env bash
# Session 91's last call: on an H200, #8's end-to-end number at batch 1 (the queue's item 3,
# ../../2026-12-05-h200/s84-next/e2e.sh; the last H200 number is session 50's 1.73x); on any other card nothing (its
# H100 numbers are in ../../2026-12-06-h100/s86-e2e/, s89-e2e/).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s91-next/poll91b.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh 'E2E_BATCHES=1 bash bench/results/2026-12-05-h200/s84-next/e2e.sh'
