#!/usr/bin/env bash
# Session 81: one device call that does the most useful thing on whichever card comes.
#   H200 -> s79-next/h200-all.sh (the queue's item 1: #6's bars with sessions 77-80's tiles and rules, decode A/B,
#           narrow tables, then s80-next/decode-types.sh incl. the two-wave split under MIXGEMM_SM90_SPLIT=stream).
#   other -> (first call, session 81: split-wave.sh, s80-next item 3 over every large layer: 2026-12-05-h100/s81-split-wave/)
#            the full GPU check of the commit (s74-next/check.sh, ~8.5 min), its logs tarred into $OUT.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s81-next/adaptive.sh    (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "gpu: $gpu"; echo "$gpu" > "$OUT/gpu.txt"
case "$gpu" in
  *H200*) bash bench/results/2026-12-05-h200/s79-next/h200-all.sh ;;
  *) bash bench/results/2026-12-05-h200/s74-next/check.sh
     [ -d /tmp/s74-check ] && (cd /tmp/s74-check && tar czf "$OUT/logs.tgz" logs) ;;
esac
