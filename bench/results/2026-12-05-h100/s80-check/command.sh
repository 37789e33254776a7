#!/usr/bin/env bash
# Session 74, prepared (no device was lent): the GPU check of the session's API changes, after s73-t32.
#   1. the full build with the Python extension (scripts/device_check.sh's build, ~100-120 s on 16 cores);
#   2. every GPU suite, now with ActivationQuantGpu (missing from device_check.sh's list since session 43):
#      ActivationQuantGpu.QuantizeThenGemmMatchesReference checks that a refused gemm_with_activation_quant writes
#      neither q nor out, PrepackGpu.RefusesBadArgumentsWithoutLaunching that host pointers are named;
#   3. memcheck / racecheck (device_check.sh's sanitize stage);
#   4. pytest tests/python on the in-tree package (test_gpu.py: the torch ops refuse f32 scales and an f16
#      static_scale instead of reading them through a bare pointer).
# ~7 min from a fresh machine:  MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s74-next/check.sh
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
CMAKE_ARGS="-DMIXGEMM_BUILD_PYTHON=ON -DPython_EXECUTABLE=$(command -v python3)" LOGS=/tmp/s74-check/logs \
  STAGES="build tests sanitize" timeout 470 bash scripts/device_check.sh 2>&1 | tail -14
echo "device_check done at $((SECONDS - t0)) s"
# gemm()'s host work per call on this machine's CPU (session 74's host-cost change; no GPU involved).
timeout 60 ./build/tools/mixgemm-bench --host-cost --shapes seed,llama2-70b,llama3-8b --m 1,16,128,1024 \
  --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 > "$OUT/host-cost.csv" 2>&1; echo "host-cost rc=$?"
if [ -f build/python/mixgemm/__init__.py ]; then
  PYTHONPATH=$PWD/build/python timeout $((580 - (SECONDS - t0))) python3 -m pytest -rs -q -p no:cacheprovider \
    tests/python > "$OUT/pytest.log" 2>&1
  echo "pytest rc=$? at $((SECONDS - t0)) s"; grep -E "^(FAILED|ERROR)|passed|failed" "$OUT/pytest.log" | tail -8
else
  echo "no in-tree Python package (build/python): pytest not run"
fi
