#!/usr/bin/env bash
# Session 87: the full GPU check of the tree (scripts/device_check.sh's build, every GPU suite, memcheck / racecheck of
# the *Sanitize* tests) with the new randomized public-gemm() test GemmFuzz (tests/gpu/test_gemm_fuzz.cu; its default 96
# cases run inside the Gemm* suite), then a wider fuzz run (FUZZ_CASES cases from seed 1), a few fuzz cases under
# compute-sanitizer memcheck, and pytest on the in-tree package with the time left. Everything under $OUT (tarred).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s87-next/check_fuzz.sh    (repo root; ~8-9 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
L=/tmp/s87-check/logs
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
CMAKE_ARGS="-DMIXGEMM_BUILD_PYTHON=ON -DPython_EXECUTABLE=$(command -v python3)" LOGS=$L \
  STAGES="build tests sanitize" timeout 430 bash scripts/device_check.sh 2>&1 | tail -14
echo "device_check done at $((SECONDS - t0)) s"
grep -h "^\[GemmFuzz\]" "$L"/gpu_Gemm.log 2>/dev/null | head -30
if [ -x build/tests/mixgemm_gpu_tests ]; then
  MIXGEMM_TEST_SEED=1 MIXGEMM_FUZZ_CASES=${FUZZ_CASES:-300} timeout 100 ./build/tests/mixgemm_gpu_tests \
    --gtest_filter='GemmFuzz.*' > "$L/fuzz-wide.log" 2>&1
  echo "fuzz wide rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$L/fuzz-wide.log" | tr '\n' ' ')"
  grep "^\[GemmFuzz\]" "$L/fuzz-wide.log" | head -40
  MIXGEMM_TEST_SEED=1000 MIXGEMM_FUZZ_CASES=12 timeout 90 compute-sanitizer --tool memcheck \
    ./build/tests/mixgemm_gpu_tests --gtest_filter='GemmFuzz.*' > "$L/fuzz-memcheck.log" 2>&1
  echo "fuzz memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$L/fuzz-memcheck.log" | tail -1) $(grep -E '^\[  (PASSED|FAILED)' "$L/fuzz-memcheck.log" | tr '\n' ' ')"
fi
left=$((570 - (SECONDS - t0)))
if [ -f build/python/mixgemm/__init__.py ] && [ $left -gt 60 ]; then
  PYTHONPATH=$PWD/build/python timeout $left python3 -m pytest -rs -q -p no:cacheprovider tests/python > "$L/pytest.log" 2>&1
  echo "pytest rc=$? at $((SECONDS - t0)) s"; grep -E "^(FAILED|ERROR)|passed|failed" "$L/pytest.log" | tail -8
else
  echo "pytest not run (left ${left} s, or no in-tree package)"
fi
cp "$OUT/summary.txt" "$L/" 2>/dev/null
tar czf "$OUT/check.tgz" -C "$(dirname "$L")" logs
rm -f "$OUT/logs.tar.gz"
echo "total $((SECONDS - t0)) s"
