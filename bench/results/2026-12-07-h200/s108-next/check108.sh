#!/usr/bin/env bash
# Session 108: the H200 queue's item 1 in the part session 107 did not cover (../s107-check/ and ../s107-fuzz/ ran the
# GemmApi / Smallm suites, pytest and GemmFuzz seeds 601..900 on the H200): scripts/device_check.sh's build (every sm90
# instance, the Python package off), every GPU suite (Device, Convert, Prepack, Smallm, Sm90, Gemm, ActivationQuant) and
# compute-sanitizer memcheck / racecheck of the *Sanitize* tests, then 12 GemmFuzz cases under memcheck (seed 1000) in
# the time left. The Sm90 suites and the sanitizers last ran on an H200 in session 97.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s108-next/check108.sh   (repo root, device; ~8 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; L=/tmp/s108-check/logs; mkdir -p "$OUT"; t0=$SECONDS
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
LOGS=$L STAGES="build tests sanitize" timeout 520 bash scripts/device_check.sh 2>&1 | tail -14
echo "device_check done at $((SECONDS - t0)) s"
cp "$0" "$L/command.sh"
grep -h "^\[GemmFuzz\]" "$L"/gpu_Gemm.log 2>/dev/null | head -20
left=$((575 - (SECONDS - t0)))
if [ -x build/tests/mixgemm_gpu_tests ] && [ $left -gt 30 ]; then
  MIXGEMM_TEST_SEED=1000 MIXGEMM_FUZZ_CASES=12 timeout $left compute-sanitizer --tool memcheck \
    ./build/tests/mixgemm_gpu_tests --gtest_filter='GemmFuzz.*' > "$L/fuzz-memcheck.log" 2>&1
  echo "fuzz memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$L/fuzz-memcheck.log" | tail -1) $(grep -E '^\[  (PASSED|FAILED)' "$L/fuzz-memcheck.log" | tr '\n' ' ')"
fi
cp "$OUT/summary.txt" "$L/" 2>/dev/null
gzip -f "$L/build.log" 2>/dev/null
tar czf "$OUT/check.tgz" -C "$(dirname "$L")" logs
rm -f "$OUT/logs.tar.gz"
echo "total $((SECONDS - t0)) s"
