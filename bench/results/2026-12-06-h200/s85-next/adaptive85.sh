#!/usr/bin/env bash
# Session 85: one device call for whichever card comes. H200 -> the bars' full sweep (s81-next/sweep-full.sh, the
# s81-next queue's item 2, ~7-9 min); any other card -> the full GPU check of this commit (s74-next/check.sh, ~7 min;
# session 84's heuristic change has run through no GPU suite yet), its summary and logs in $OUT;
# ADAPTIVE85_OTHER=none: nothing on another card (keeps the device minutes for an H200), =ab: ab_s8m16.sh there too; ADAPTIVE85_H200=ab: on an H200
# s85-next/ab_s8m16.sh instead of the sweep (carry .s85, prepared as its header says).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s85-next/adaptive85.sh    (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "gpu: $gpu"; echo "$gpu" > "$OUT/gpu.txt"
case "$gpu" in
  *H200*) if [ "${ADAPTIVE85_H200:-sweep}" = ab ]; then bash bench/results/2026-12-06-h200/s85-next/ab_s8m16.sh
          else bash bench/results/2026-12-05-h200/s81-next/sweep-full.sh 2>&1 | tail -40; fi ;;
  *) [ "${ADAPTIVE85_OTHER:-check}" = none ] && { echo "not an H200: nothing to do"; exit 0; }
     [ "${ADAPTIVE85_OTHER:-check}" = ab ] && { bash bench/results/2026-12-06-h200/s85-next/ab_s8m16.sh; exit 0; }
     bash bench/results/2026-12-05-h200/s74-next/check.sh 2>&1 | tail -40
     cp /tmp/s74-check/logs/summary.txt "$OUT/" 2>/dev/null; tar czf "$OUT/logs.tgz" -C /tmp/s74-check logs ;;
esac
