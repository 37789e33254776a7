#!/usr/bin/env bash
# Configures and builds mixgemm into ./build (override with BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
# The Python extension (build/python/mixgemm) whenever nanobind is importable; MIXGEMM_BUILD_PYTHON=OFF skips it.
PY_ARGS=()
if [ "${MIXGEMM_BUILD_PYTHON:-auto}" != OFF ] && python3 -c "import nanobind" >/dev/null 2>&1; then
  PY_ARGS=(-DMIXGEMM_BUILD_PYTHON=ON "-DPython_EXECUTABLE=$(python3 -c 'import sys; print(sys.executable)')")
fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "${PY_ARGS[@]}" "$@"
cmake --build "$BUILD_DIR" -j "$JOBS" 2>&1 | tee "$BUILD_DIR/build-output.log"
# The library's wgmma kernels must not have their wgmmas serialized by ptxas (C7510..C7515, printed
# as "ptxas info ... Potential Performance Loss"): such a kernel is correct and runs its mainloop
# 5-15% longer with the same instructions; sessions 23 and 35 measured cluster kernels so without
# seeing the line (docs/design-sm90.md, "Session 36"). Only the translation units compiled by this
# build print it.
if grep -E "\(C751[0-5]\).*sm90_kernel" "$BUILD_DIR/build-output.log" >&2; then
  echo "error: ptxas serialized the wgmma of an sm90 kernel (lines above); see docs/design-sm90.md, Session 36" >&2
  exit 1
fi
