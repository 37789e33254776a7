#!/usr/bin/env bash
# Session 99: the H200 queue's items 2 and 3 (../s98-next/gateup_repeat.sh, ../s98-next/graph_midm.sh) in one call
# without a device build, for a session with little budget left. The bench comes prebuilt: carry `.s99`, whose
# bench.xz is mixgemm-bench from a clean Release build of the whole library (all instances) on the CPU machine
# (nvcc 13.0, the tree at MIXGEMM_GIT_COMMIT; library code = 52ea003's). ROUNDS / MIDM_TOTAL shorten the two items;
# MIDM_TOTAL=0 runs the first only.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s99-next/queue_small.sh    (repo root, device)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; t0=$SECONDS
BXZ=${BENCH_XZ:-.s99/bench.xz}   # session 103: BENCH_XZ=.s103/bench.xz (the bench of c5284e5c's tree)
mkdir -p build/tools && xz -dc "$BXZ" > build/tools/mixgemm-bench && chmod +x build/tools/mixgemm-bench || {
  echo "no $BXZ: carry its folder"; exit 1; }
cp "$0" "$OUT/queue_small.command.sh"
ROUNDS=${ROUNDS:-4} bash bench/results/2026-12-07-h200/s98-next/gateup_repeat.sh 2>&1 | tail -14
echo "gateup done at $((SECONDS - t0)) s"
[ "${MIDM_TOTAL:-300}" -gt 0 ] && TOTAL=${MIDM_TOTAL:-300} bash bench/results/2026-12-07-h200/s98-next/graph_midm.sh 2>&1 | tail -40
echo "total $((SECONDS - t0)) s"
