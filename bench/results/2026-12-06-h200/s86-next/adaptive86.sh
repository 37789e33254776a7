#!/usr/bin/env bash
# Session 86: one device call for whichever card comes (scripts/device_adaptive.sh). H200 -> the bars' full sweep
# (s81-next/sweep-full.sh, ~8-9 min from a fresh machine: #4 / #5's large-M rows, last on the H200 in session 65); any
# other card -> #8's end-to-end harness at batch 1 (s84-next/e2e.sh, E2E_BATCHES=1: fp16 / w4a16 / w4a16-ps in one
# process; last run in session 50, on the H200), since every other queued item needs an H200 and the full GPU check of
# this code ran in session 85. (As run in session 86 the dispatch was written out here; same behaviour.)
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s86-next/adaptive86.sh     (repo root)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh \
  'bash bench/results/2026-12-05-h200/s81-next/sweep-full.sh 2>&1 | tail -40' \
  'E2E_BATCHES=${E2E_BATCHES:-1} bash bench/results/2026-12-05-h200/s84-next/e2e.sh'
