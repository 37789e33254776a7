#!/usr/bin/env bash
# Session 102: the tree with the cluster-residency query on the call's stream, GemmApi.GreenContextStreams and the
# torch ops' sm_count, on whichever card comes: the full build with the Python package, the new test with
# MIXGEMM_PRINT_CONFIG=1 (how each launch on a green stream split K), the GemmApi / Smallm suites, the whole pytest
# suite, and on an H200 also the wide activation fuzz of the H200 queue's item 1 (check91b.sh).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s102-next/check102.sh     (repo root, device)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; L=/tmp/s102/logs; rm -rf "$L"; mkdir -p "$L" "$OUT"; t0=$SECONDS
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu" | tee "$L/gpu.txt"
echo "${MIXGEMM_GIT_COMMIT:-unknown}" > "$L/commit.txt"; cp "$0" "$L/command.sh"
CMAKE_ARGS="-DMIXGEMM_BUILD_PYTHON=ON -DPython_EXECUTABLE=$(command -v python3)" LOGS=$L STAGES="build" \
  timeout 300 bash scripts/device_check.sh 2>&1 | tail -2
echo "build done at $((SECONDS - t0)) s"
T=./build/tests/mixgemm_gpu_tests
MIXGEMM_PRINT_CONFIG=1 timeout 150 $T --gtest_filter='GemmApi.GreenContextStreams' > "$L/green.log" 2>&1
echo "green rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$L/green.log" | tr '\n' ' ')"
grep -E '^\[ info \]' "$L/green.log" | head -12
echo "launch splits on green streams (count, line):"
grep -E '^\[mixgemm\]   smallm' "$L/green.log" | sed 's/: [0-9]* CTAs/: N CTAs/' | sort | uniq -c | sort -rn | head -8
timeout 300 $T --gtest_filter='GemmApi*:Smallm*:-GemmApi.GreenContextStreams' > "$L/suites.log" 2>&1
echo "suites rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$L/suites.log" | tr '\n' ' ')"
grep -E '^\[  FAILED' "$L/suites.log" | head -5
PYTHONPATH=$PWD/build/python timeout 240 python3 -m pytest -rs -q -p no:cacheprovider tests/python > "$L/pytest.log" 2>&1
echo "pytest rc=$? at $((SECONDS - t0)) s"; grep -E "^(FAILED|ERROR)|passed|failed" "$L/pytest.log" | tail -5
case "$gpu" in *H200*)
  MIXGEMM_TEST_SEED=1 MIXGEMM_FUZZ_CASES=300 timeout 90 $T --gtest_filter='GemmFuzz.QuantizedActivationsMatchReference' \
    > "$L/fuzz-act.log" 2>&1
  echo "fuzz act rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$L/fuzz-act.log" | tr '\n' ' ')" ;;
esac
gzip -f "$L/build.log" 2>/dev/null
tar czf "$OUT/check102.tgz" -C "$(dirname "$L")" logs
echo "total $((SECONDS - t0)) s"
