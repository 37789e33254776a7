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
cmake --build "$BUILD_DIR" -j "$JOBS"
