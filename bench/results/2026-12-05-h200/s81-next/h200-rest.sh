#!/usr/bin/env bash
# Session 81, prepared: the rest of the H200 queue in one call (machines go back 30 s after a call), ~7-8 min:
#   1. build build-sweep as s77-next/sweep-small.sh does (every sm90 schedule of f16 / bf16 / s8 / e4m3 x u4; ~110 s);
#   2. s81-next/e4m3-m16.sh on it (grouped e4m3 at M = 9..16 on the 16 large layers where smallm or 128 x 64 is picked);
#   3. s81-next/stream-tail.sh on it (split-K against the heuristic's stream-K for 256 x 16 on three large layers);
#   4. s80-next/decode-types.sh on it with the time left (256 x 16 against smallm for the rule's other type configs, and
#      the two-wave split; the 8-bit-weight configs are left out with build-sweep: their H100 answer stands).
# Each leaves its tarball (and a table) in $OUT.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s81-next/h200-rest.sh    (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
export OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
if [ ! -x build-sweep/tools/mixgemm-bench ]; then
  (cmake -S . -B build-sweep -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
     -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-sweep -j 16 --target mixgemm-bench) \
    > "$OUT/build-sweep.log" 2>&1 || { tail -20 "$OUT/build-sweep.log"; exit 2; }
fi
echo "== build-sweep ready at $((SECONDS - t0)) s"
D=bench/results/2026-12-05-h200
# The two questions that can change a rule first, then decode-types (the H200's word on decisions the H100 made).
DEADLINE=150 bash $D/s81-next/e4m3-m16.sh 2>&1 | tail -16
echo "== e4m3-m16 done at $((SECONDS - t0)) s"
DEADLINE=100 bash $D/s81-next/stream-tail.sh 2>&1 | tail -22
echo "== stream-tail done at $((SECONDS - t0)) s"
[ $((SECONDS - t0)) -lt 480 ] && DEADLINE=$((580 - (SECONDS - t0))) bash $D/s80-next/decode-types.sh 2>&1 | tail -30
echo "== decode-types done at $((SECONDS - t0)) s"
