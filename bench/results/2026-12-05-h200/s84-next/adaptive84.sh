#!/usr/bin/env bash
# Session 84: one device call for whichever card comes. H200 -> the bars' full sweep (s81-next/sweep-full.sh, the
# queue's item 2, ~7-9 min); any other card -> s84-next/ab_e4m3.sh (the e4m3 two-atom refit's held-out A/B, ~4 min;
# carry .s84, prepared as ab_e4m3.sh's header says). ADAPTIVE84=ab runs the A/B on an H200 too.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s84-next/adaptive84.sh    (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "gpu: $gpu"; echo "$gpu" > "$OUT/gpu.txt"
case "$gpu/${ADAPTIVE84:-}" in
  *H200*/) bash bench/results/2026-12-05-h200/s81-next/sweep-full.sh 2>&1 | tail -40 ;;
  *) bash bench/results/2026-12-05-h200/s84-next/ab_e4m3.sh ;;
esac
