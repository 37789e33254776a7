#!/usr/bin/env bash
# Session 103's first call (any card): session 102's check (../s102-next/check102.sh: device build with the Python
# package, GemmApi.GreenContextStreams with its current-context check, the GemmApi / Smallm suites, pytest, the wide
# activation fuzz on an H200) on the tree with sm90's launcher no longer calling cudaSetDevice over a current context,
# then, with the bench of that same build, every decode schedule on an 80-SM green context in ONE bench process
# (../../2026-12-07-h100/s102-allsched-green/command.sh with ONE_PROCESS=1): the 1.2-2.1x anomaly of session 101's
# one-process run must be gone.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s103-next/first103.sh     (repo root, device)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; t0=$SECONDS
cp "$0" "$OUT/first103.command.sh"
bash bench/results/2026-12-07-h200/s102-next/check102.sh
echo "check done at $((SECONDS - t0)) s"
ONE_PROCESS=1 BENCH=./build/tools/mixgemm-bench bash bench/results/2026-12-07-h100/s102-allsched-green/command.sh
echo "total $((SECONDS - t0)) s"
