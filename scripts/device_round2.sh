#!/usr/bin/env bash
# Session-3 second device call: the merged tree's GPU suite + sanitizers (W4A8 sm90
# instances now on main), then the Python package's GPU tests and the end-to-end decode
# benchmark with the libstdc++ export fix (in-tree build, PYTHONPATH=build/python).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
mkdir -p "$OUT/py"
STAGES="build sass tests sanitize" CMAKE_ARGS="-DMIXGEMM_BUILD_PYTHON=ON" bash scripts/device_check.sh > "$OUT/device_check.txt" 2>&1
echo "device_check done $((SECONDS-T0)) s"; cat "$OUT/summary.txt"
export PYTHONPATH=$PWD/build/python PYTHONUNBUFFERED=1
(cd / && python3 -c "import mixgemm, mixgemm.torch; print('import ok', mixgemm.__file__)")
timeout 200 python3 -m pytest -rs -v -p no:cacheprovider tests/python > "$OUT/py/pytest.log" 2>&1
echo "pytest rc=$? $(tail -1 "$OUT/py/pytest.log")  ($((SECONDS-T0)) s)"
grep -E "^(FAILED|ERROR)" "$OUT/py/pytest.log" | head
timeout 240 python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 --out "$OUT/py/e2e.csv" \
  > "$OUT/py/e2e.log" 2>&1
echo "e2e rc=$? ($((SECONDS-T0)) s)"
grep -E "^\[e2e\]" "$OUT/py/e2e.log" | tail -16
