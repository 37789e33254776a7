#!/usr/bin/env bash
# Builds mixgemm and runs the whole test suite: ctest (CPU tests; GPU tests skip without a
# GPU) and pytest on the Python package (tests/python; GPU tests skip without a GPU or
# PyTorch). Ends with one summary line: "summary: N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
logs=$(mktemp -d)
cd "$BUILD_DIR"
# Say once, up front, why the `gpu`-labelled tests will be reported as skipped.
./tests/mixgemm_gpu_tests --gtest_filter='Device.*' 2>&1 | grep -m1 -o 'no CUDA device.*' |
  sed 's/^/[test] gpu-labelled tests skip on this machine: /' || true
set +e
ctest --output-on-failure -j "$(nproc)" "$@" 2>&1 | tee "$logs/ctest.log"
ctest_rc=${PIPESTATUS[0]}
cd ..
if [ -f "$BUILD_DIR/python/mixgemm/__init__.py" ]; then
  PYTHONPATH="$PWD/$BUILD_DIR/python${PYTHONPATH:+:$PYTHONPATH}" python3 -m pytest -rs tests/python 2>&1 |
    tee "$logs/pytest.log"
  py_rc=${PIPESTATUS[0]}
else
  echo "[test] the Python package was not built (nanobind missing?): pytest not run"
  py_rc=1
  : >"$logs/pytest.log"
fi
set -e

# ctest: "NN% tests passed, F tests failed out of T"; skipped tests are counted as passed there.
read -r c_failed c_total < <(sed -n 's/.*tests passed, \([0-9]*\) tests\? failed out of \([0-9]*\).*/\1 \2/p' \
  "$logs/ctest.log" | tail -1) || true
c_failed=${c_failed:-0}
c_total=${c_total:-0}
c_skipped=$(grep -c '\*\*\*Skipped\|Not Run (Disabled)' "$logs/ctest.log" || true)
c_passed=$((c_total - c_failed - c_skipped))
# pytest: "== 33 passed, 1 skipped in 3.21s =="
p_line=$(grep -E '^=+ .*( passed| failed| error| skipped| no tests ran).* in [0-9.]+s' "$logs/pytest.log" | tail -1)
count() { echo "$p_line" | grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' || echo 0; }
p_passed=$(count passed)
p_failed=$(($(count failed) + $(count error)))
p_skipped=$(count skipped)
[ "$py_rc" -ne 0 ] && [ "$p_failed" -eq 0 ] && p_failed=1
verdict() { [ "$1" -eq 0 ] && echo PASS || echo FAIL; }
echo "[test] ctest: $(verdict "$ctest_rc") ($c_passed passed, $c_failed failed, $c_skipped skipped);" \
  "pytest: $(verdict "$py_rc") ($p_passed passed, $p_failed failed, $p_skipped skipped)"
rm -rf "$logs"
echo "summary: $((c_passed + p_passed)) passed, $((c_failed + p_failed)) failed, $((c_skipped + p_skipped)) skipped"
[ "$ctest_rc" -eq 0 ] && [ "$py_rc" -eq 0 ]
