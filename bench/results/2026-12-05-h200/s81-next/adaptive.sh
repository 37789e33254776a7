#!/usr/bin/env bash
# Session 81: one device call that does the most useful thing on whichever card comes.
#   H200 -> s79-next/h200-all.sh (the queue's item 1: #6's bars with sessions 77-80's tiles and rules, decode A/B,
#           narrow tables, then s80-next/decode-types.sh incl. the two-wave split under MIXGEMM_SM90_SPLIT=stream).
#   other -> (first call, session 81: split-wave.sh, s80-next item 3 over every large layer: 2026-12-05-h100/s81-split-wave/)
#            (second call: the full GPU check, s74-next/check.sh: 2026-12-05-h100/s81-check/)
#            ncu profiles of sm90's 256 x 16 at decode (seed shape; f16 g128 at M = 1 / 16, e4m3 g128 at M = 1): which
#            pipe or stall bounds the tile that now serves large layers at decode (scripts/profile_sm90_bench.sh, ~4 min).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s81-next/adaptive.sh    (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "gpu: $gpu"; echo "$gpu" > "$OUT/gpu.txt"
case "$gpu" in
  # ADAPTIVE_H200=sweep: the bars' sweep alone, for a call with less than ~8 min of device time left.
  *H200*) if [ "${ADAPTIVE_H200:-all}" = sweep ]; then
            TIME_LIMIT=${TIME_LIMIT:-200} bash bench/results/2026-12-05-h200/s77-next/sweep-small.sh 2>&1 | tail -24
          else bash bench/results/2026-12-05-h200/s79-next/h200-all.sh; fi ;;
  *) [ "${ADAPTIVE_OTHER:-profile}" = none ] && { echo "not an H200: nothing to do"; exit 0; }
     PROF_SM90_TYPES=f16.u4,e4m3.u4 PROF_SM90_SCHEDULES=256x16_1x1x1_coop_splitk CLOCKS=0 \
     PROFILES="t256x16_f16_m1:8192x21760:1:sm90_256x16_1x1x1_coop_splitk:f16.u4b8.g128
t256x16_f16_m16:8192x21760:16:sm90_256x16_1x1x1_coop_splitk:f16.u4b8.g128
t256x16_e4m3_m1:8192x21760:1:sm90_256x16_1x1x1_coop_splitk:e4m3.u4b8.g128" \
       bash scripts/profile_sm90_bench.sh 2>&1 | tail -60 ;;
esac
