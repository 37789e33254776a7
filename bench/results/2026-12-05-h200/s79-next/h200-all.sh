#!/usr/bin/env bash
# Session 79: items 1-3 of this folder's README in one device call (~7.5 min on an H100 in session 79's timings:
# build 125 s, sweep 190 s, decode A/B 25 s, narrow tables 90 s), so they need no warm machine between calls:
#   1. s77-next/sweep-small.sh  (#6's bars at M = 1..64, cuBLAS in the same run; builds build-sweep)
#   2. s79-next/decode-ab.sh    (the decode rule on / off; reuses build-sweep)
#   3. s77-next/narrow-h200.sh  (the narrow-tile tables for s79-narrow/fit.py; reuses build-sweep)
# Each leaves its own tarball in $OUT (3 files; 4 with session 80's decode-types.sh, chained when time is left).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s79-next/h200-all.sh    (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
D=bench/results/2026-12-05-h200
TIME_LIMIT=${TIME_LIMIT:-240} bash $D/s77-next/sweep-small.sh 2>&1 | tail -24
echo "== sweep done at $((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 470 ] && DEADLINE=$((540 - (SECONDS - t0) - 100)) bash $D/s79-next/decode-ab.sh 2>&1 | tail -8
echo "== decode A/B done at $((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 490 ] && DEADLINE=$((560 - (SECONDS - t0))) bash $D/s77-next/narrow-h200.sh 2>&1 | tail -8
echo "== narrow done at $((SECONDS - t0)) s"
# Session 80: s80-next/decode-types.sh (items 2-3 of s80-next/README.md) when time is left; it reuses build-sweep.
[ $((SECONDS - t0)) -lt 500 ] && DEADLINE=$((575 - (SECONDS - t0))) bash bench/results/2026-12-05-h200/s80-next/decode-types.sh 2>&1 | tail -30
echo "== decode-types done at $((SECONDS - t0)) s"
