#!/usr/bin/env bash
# The Python package's GPU work, in one run on a CUDA machine (made for the H200 machine:
# no internet, nvcc 13, cmake, ninja, Python 3.12 with PyTorch, nanobind and
# scikit-build-core installed; transformers is used when present):
#   1. pip install --no-build-isolation --no-deps .   (the whole CMake build, ~1-2 min)
#   2. python -c "import mixgemm" from outside the checkout
#   3. pytest tests/python (GPU suite included)        -> $OUT/pytest.log
#   4. examples/llama_decode.py                        -> $OUT/e2e.csv, $OUT/e2e.log
#   5. a short summary, printed last (also $OUT/summary.txt)
# Usage:  OUT=/some/empty/dir bash scripts/device_python.sh      (OUT defaults to ./device-out)
# Knobs:  E2E_ARGS="--layers 16" to shrink the models, E2E_TIMEOUT / TEST_TIMEOUT (seconds).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/device-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-16}
export PYTHONUNBUFFERED=1
PY=${PYTHON:-python3}
t0=$SECONDS
stamp() { echo "[device_python] $(( SECONDS - t0 ))s: $*"; }

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 || true
  nvcc --version 2>&1 | tail -1
  cmake --version 2>&1 | head -1
  $PY - <<'PYEOF' 2>&1
import importlib, sys
print("python", sys.version.split()[0], sys.executable)
for m in ("torch", "nanobind", "scikit_build_core", "numpy", "pytest", "transformers", "cupy"):
    try:
        print(m, getattr(importlib.import_module(m), "__version__", "?"))
    except Exception as e:
        print(m, "MISSING", type(e).__name__)
PYEOF
} >"$OUT/env.txt"
cat "$OUT/env.txt"

stamp "building and installing the package (log: install.log)"
$PY -m pip install --no-build-isolation --no-deps -v \
  --config-settings=build-dir=build-pip . >"$OUT/install.log" 2>&1
install_rc=$?
stamp "pip install rc=$install_rc"
[ $install_rc -ne 0 ] && tail -30 "$OUT/install.log"

(cd / && $PY -c "import mixgemm, mixgemm.torch; print('import mixgemm ok:', mixgemm.__file__)") 2>&1 |
  tee -a "$OUT/install.log"
import_rc=${PIPESTATUS[0]}

stamp "pytest tests/python (log: pytest.log)"
timeout "${TEST_TIMEOUT:-240}" $PY -m pytest -rs -v -p no:cacheprovider tests/python >"$OUT/pytest.log" 2>&1
test_rc=$?
stamp "pytest rc=$test_rc"
grep -E '^(FAILED|ERROR)' "$OUT/pytest.log" | head -20

stamp "examples/llama_decode.py (log: e2e.log, results: e2e.csv)"
timeout "${E2E_TIMEOUT:-300}" $PY examples/llama_decode.py --out "$OUT/e2e.csv" ${E2E_ARGS:-} 2>&1 |
  tee "$OUT/e2e.log" | grep -E '^\[e2e\]|Error|error' | head -60
e2e_rc=${PIPESTATUS[0]}
stamp "e2e rc=$e2e_rc"

{
  echo "== device_python summary ($(( SECONDS - t0 )) s) =="
  echo "install: $([ $install_rc -eq 0 ] && echo ok || echo FAILED rc=$install_rc)," \
       "import: $([ $import_rc -eq 0 ] && echo ok || echo FAILED)"
  echo "pytest: $(grep -E '^=+ .* in [0-9.]+s' "$OUT/pytest.log" | tail -1 | tr -d '=' | sed 's/^ *//')" \
       "(rc=$test_rc)"
  if [ -s "$OUT/e2e.csv" ]; then
    $PY - "$OUT/e2e.csv" <<'PYEOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(f"e2e: {len(rows)} rows")
print(f"{'model':14s} {'batch':>5s} {'variant':10s} {'tok/s':>9s} {'x fp16':>6s} {'peakGB':>7s} {'wGB':>6s} {'logit err':>9s}")
for r in rows:
    print(f"{r['model']:14s} {r['batch']:>5s} {r['variant']:10s} {float(r['tokens_per_s']):9.1f} "
          f"{r['speedup_vs_fp16'] or '-':>6s} {float(r['peak_mem_gb']):7.2f} {float(r['weight_gb']):6.2f} "
          f"{float(r['logits_rel_err']):9.4f}")
bar = [r for r in rows if r["model"].startswith("llama3-8b") and r["batch"] == "1" and r["variant"] == "w4a16"]
if bar and bar[0]["speedup_vs_fp16"]:
    s = float(bar[0]["speedup_vs_fp16"])
    print(f"bar: Llama-3-8B batch 1 W4A16 = {s:.2f}x fp16 (target >= 2.5x): {'MET' if s >= 2.5 else 'NOT MET'}")
PYEOF
  else
    echo "e2e: no results (rc=$e2e_rc); see e2e.log"
  fi
} | tee "$OUT/summary.txt"
[ $install_rc -eq 0 ] && [ $import_rc -eq 0 ] && [ $test_rc -eq 0 ] && [ $e2e_rc -eq 0 ]
