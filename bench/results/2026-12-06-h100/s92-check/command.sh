#!/usr/bin/env bash
# Session 91: what s91-check's time cap cut, on whichever card comes: the full build with the Python package (as
# check_fuzz.sh builds it), GemmFuzz.QuantizedActivationsMatchReference over 300 seeds (its wide run), and the whole
# pytest suite (tests/python). On an H200 use poll91b.sh instead (#8's e2e).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s91-next/check91b.sh      (repo root, device; ~4-5 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT/logs"
L=$OUT/logs; t0=$SECONDS
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tee "$OUT/gpu.txt"
echo "${MIXGEMM_GIT_COMMIT:-unknown}" > "$L/commit.txt"
CMAKE_ARGS="-DMIXGEMM_BUILD_PYTHON=ON -DPython_EXECUTABLE=$(command -v python3)" LOGS=$L STAGES="build" \
  timeout 300 bash scripts/device_check.sh 2>&1 | tail -3
echo "build done at $((SECONDS - t0)) s"
MIXGEMM_TEST_SEED=1 MIXGEMM_FUZZ_CASES=300 timeout 90 ./build/tests/mixgemm_gpu_tests \
  --gtest_filter='GemmFuzz.QuantizedActivationsMatchReference' > "$L/fuzz-act.log" 2>&1
echo "fuzz act rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$L/fuzz-act.log" | tr '\n' ' ')"
grep "^\[GemmFuzz\]" "$L/fuzz-act.log" | head -8
PYTHONPATH=$PWD/build/python timeout $((500 - (SECONDS - t0))) python3 -m pytest -rs -q -p no:cacheprovider tests/python \
  > "$L/pytest.log" 2>&1
echo "pytest rc=$? at $((SECONDS - t0)) s"; grep -E "^(FAILED|ERROR)|passed|failed" "$L/pytest.log" | tail -5
tar czf "$OUT/check91b.tgz" -C "$OUT" logs && rm -rf "$L"
echo "total $((SECONDS - t0)) s"
