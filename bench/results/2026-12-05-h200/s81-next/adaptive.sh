#!/usr/bin/env bash
# Session 81: one device call that does the most useful thing on whichever card comes.
#   H200  -> s81-next/h200-rest.sh (the queue's item 1: decode-types, e4m3-m16, stream-tail on one build, ~8-9 min);
#            ADAPTIVE_H200=sweep: s77-next/sweep-small.sh alone (how session 81 got s81-sweep-small/);
#            ADAPTIVE_H200=full: s81-next/sweep-full.sh (the bars' full sweep, M = 1..8192; session 82).
#   other -> s81-next/e4m3-m16.sh then stream-tail.sh (~5 min; any card answers them); ADAPTIVE_OTHER=profile: the ncu profiles of sm90's
#            256 x 16 at decode (how session 81 got 2026-12-05-h100/s81-ncu-t16/); ADAPTIVE_OTHER=none: nothing;
#            ADAPTIVE_OTHER=e4m3all: s81-next/e4m3all.sh (the queue's item 2b, any card; session 84).
#   (Session 81's first two H100 calls ran split-wave.sh, 2026-12-05-h100/s81-split-wave/, and the full check,
#   s74-next/check.sh, 2026-12-05-h100/s81-check/, from earlier versions of this script.)
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s81-next/adaptive.sh    (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "gpu: $gpu"; echo "$gpu" > "$OUT/gpu.txt"
case "$gpu" in
  *H200*) case "${ADAPTIVE_H200:-all}" in
            sweep) TIME_LIMIT=${TIME_LIMIT:-200} bash bench/results/2026-12-05-h200/s77-next/sweep-small.sh 2>&1 | tail -24 ;;
            full) bash bench/results/2026-12-05-h200/s81-next/sweep-full.sh 2>&1 | tail -40 ;;
            *) bash bench/results/2026-12-05-h200/s81-next/h200-rest.sh ;;
          esac ;;
  *) [ "${ADAPTIVE_OTHER:-e4m3}" = e4m3all ] && { bash bench/results/2026-12-05-h200/s81-next/e4m3all.sh 2>&1 | tail -30; exit 0; }
     [ "${ADAPTIVE_OTHER:-e4m3}" = none ] && { echo "not an H200: nothing to do"; exit 0; }
     [ "${ADAPTIVE_OTHER:-e4m3}" = e4m3 ] && { DEADLINE=330 bash bench/results/2026-12-05-h200/s81-next/e4m3-m16.sh 2>&1 | tail -16
       DEADLINE=$((570 - SECONDS)) bash bench/results/2026-12-05-h200/s81-next/stream-tail.sh 2>&1 | tail -22; exit 0; }
     PROF_SM90_TYPES=f16.u4,e4m3.u4 PROF_SM90_SCHEDULES=256x16_1x1x1_coop_splitk CLOCKS=0 \
     PROFILES="t256x16_f16_m1:8192x21760:1:sm90_256x16_1x1x1_coop_splitk:f16.u4b8.g128
t256x16_f16_m16:8192x21760:16:sm90_256x16_1x1x1_coop_splitk:f16.u4b8.g128
t256x16_e4m3_m1:8192x21760:1:sm90_256x16_1x1x1_coop_splitk:e4m3.u4b8.g128" \
       bash scripts/profile_sm90_bench.sh 2>&1 | tail -60 ;;
esac
