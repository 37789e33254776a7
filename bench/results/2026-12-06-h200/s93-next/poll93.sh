#!/usr/bin/env bash
# Session 93, after s93-psums: on an H200 the queue's item 3, #8's end-to-end number at batch 1
# (../../2026-12-05-h200/s84-next/e2e.sh; the last H200 number is session 50's 1.73x); on any other card nothing
# (every H100 item of the queue has run: ../../2026-12-06-h100/).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s93-next/poll93.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh 'E2E_BATCHES=1 bash bench/results/2026-12-05-h200/s84-next/e2e.sh'
