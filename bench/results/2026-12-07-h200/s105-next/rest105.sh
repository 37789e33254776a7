#!/usr/bin/env bash
# Session 105: what s105-check's full check left out (../../2026-12-07-h100/s105-check/), on whichever card comes:
# the device build with the Python package, the whole pytest suite, and the wide quantize-and-gemm fuzz
# (GemmFuzz.QuantizedActivationsMatchReference over seeds 1..300, cut by check_fuzz.sh's 100 s limit there).
#   MIXGEMM_GIT_COMMIT=<commit> [FUZZ_S=170] bash bench/results/2026-12-07-h200/s105-next/rest105.sh   (repo root, device; ~5 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; L=/tmp/s105/logs; rm -rf "$L"; mkdir -p "$L" "$OUT"; t0=$SECONDS
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu" | tee "$L/gpu.txt"
echo "${MIXGEMM_GIT_COMMIT:-unknown}" > "$L/commit.txt"; cp "$0" "$L/command.sh"
CMAKE_ARGS="-DMIXGEMM_BUILD_PYTHON=ON -DPython_EXECUTABLE=$(command -v python3)" LOGS=$L STAGES="build" \
  timeout 300 bash scripts/device_check.sh 2>&1 | tail -2
echo "build done at $((SECONDS - t0)) s"
T=./build/tests/mixgemm_gpu_tests
MIXGEMM_TEST_SEED=1 MIXGEMM_FUZZ_CASES=300 timeout ${FUZZ_S:-170} $T --gtest_filter='GemmFuzz.QuantizedActivationsMatchReference' \
  > "$L/fuzz-act.log" 2>&1
echo "fuzz act rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$L/fuzz-act.log" | tr '\n' ' ')"
grep -E '^\[GemmFuzz\] quantize' "$L/fuzz-act.log"
PYTHONPATH=$PWD/build/python timeout ${PYTEST_S:-$((560 - (SECONDS - t0)))} python3 -m pytest -rs -q -p no:cacheprovider tests/python \
  > "$L/pytest.log" 2>&1
echo "pytest rc=$? at $((SECONDS - t0)) s"; grep -E "^(FAILED|ERROR)|passed|failed" "$L/pytest.log" | tail -5
gzip -f "$L/build.log" 2>/dev/null
tar czf "$OUT/rest105.tgz" -C "$(dirname "$L")" logs
echo "total $((SECONDS - t0)) s"
