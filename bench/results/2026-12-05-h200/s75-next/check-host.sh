#!/usr/bin/env bash
# Session 75: the GPU check of the session's host-side changes alone, for a call with less device time than
# s74-next/check.sh needs (~5 min from a fresh machine against ~8): the full build with the Python extension, the
# API-level GPU suites (Device, Prepack*, Gemm*: dispatch, CUDA-graph capture with the stream-device query, the
# stream refusal, two streams; ActivationQuant*), and pytest tests/python (test_gpu.py: the fork / join capture,
# the replay after the workspace grew, the DLPack gemm on concurrent streams). No kernel suites, no sanitizers:
# the session changed no device code.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s75-next/check-host.sh
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
CMAKE_ARGS="-DMIXGEMM_BUILD_PYTHON=ON -DPython_EXECUTABLE=$(command -v python3)" LOGS=/tmp/s75-check/logs \
  GPU_FILTERS="Device.* Prepack* Gemm* ActivationQuant*" STAGES="build tests" timeout 330 bash scripts/device_check.sh \
  2>&1 | tail -10
echo "device_check done at $((SECONDS - t0)) s"
if [ -f build/python/mixgemm/__init__.py ]; then
  PYTHONPATH=$PWD/build/python timeout $((540 - (SECONDS - t0))) python3 -m pytest -rs -q -p no:cacheprovider \
    tests/python > "$OUT/pytest.log" 2>&1
  echo "pytest rc=$? at $((SECONDS - t0)) s"; grep -E "^(FAILED|ERROR)|passed|failed" "$OUT/pytest.log" | tail -8
else
  echo "no in-tree Python package (build/python): pytest not run"
fi
