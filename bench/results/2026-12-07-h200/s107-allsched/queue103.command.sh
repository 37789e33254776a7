#!/usr/bin/env bash
# Session 103: the H200 queue without a device build, and only on an H200 (on another card it stops at once: these
# items are about the H200's own timings). The bench comes prebuilt in .s103/bench.xz (carry `.s103`: mixgemm-bench
# of c5284e5c's tree, a clean Release build of every instance on the CPU machine, nvcc 13.0).
#  1. every f16 / s8 x u4b8 g128 decode schedule on the whole card, one process (s102-allsched-green/command.sh,
#     SMS=0 ONE_PROCESS=1; ~1 min): the H200's own pick-vs-fastest table, which the 80-SM H100 stand-in approximated;
#  2. + 3. ../s99-next/queue_small.sh (gateup_repeat.sh with 4 rounds, graph_midm.sh in 240 s).
#   MIXGEMM_GIT_COMMIT=c5284e5c bash bench/results/2026-12-07-h200/s103-next/queue103.sh   (repo root, device; ~8 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; t0=$SECONDS
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu"
case "$gpu" in *H200*) ;; *) echo "not an H200: nothing run"; exit 0 ;; esac
cp "$0" "$OUT/queue103.command.sh"
mkdir -p build/tools && xz -dc .s103/bench.xz > build/tools/mixgemm-bench && chmod +x build/tools/mixgemm-bench || {
  echo "no .s103/bench.xz: carry .s103"; exit 1; }
SMS=0 ONE_PROCESS=1 BENCH=./build/tools/mixgemm-bench \
  bash bench/results/2026-12-07-h100/s102-allsched-green/command.sh 2>&1 | tail -12
echo "allsched done at $((SECONDS - t0)) s"
ROUNDS=${ROUNDS:-4} MIDM_TOTAL=${MIDM_TOTAL:-240} BENCH_XZ=.s103/bench.xz bash bench/results/2026-12-07-h200/s99-next/queue_small.sh
echo "total $((SECONDS - t0)) s"
