#!/usr/bin/env bash
# Installs what a fresh Debian 12 + CUDA 13 machine lacks to build and test mixgemm.
# Debian packages by name (pinned to Debian 12's versions); nothing else is fetched.
set -euo pipefail

need=()
command -v cmake >/dev/null 2>&1 || need+=("cmake=3.25.1-1")
command -v ninja >/dev/null 2>&1 || need+=("ninja-build=1.11.1-2~deb12u1")
command -v g++ >/dev/null 2>&1 || need+=("g++=4:12.2.0-3")
[ -f /usr/include/gtest/gtest.h ] || need+=("libgtest-dev=1.12.1-0.2" "googletest=1.12.1-0.2")
if [ ${#need[@]} -gt 0 ]; then
  echo "[setup] installing: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH=/usr/local/cuda/bin:$PATH
  else
    echo "[setup] nvcc not found: mixgemm needs the CUDA 13 toolkit (nvcc) to build" >&2
    exit 1
  fi
fi
# The Python package (python/, tests/python): pinned build and test requirements from PyPI.
py_reqs="$(dirname "$0")/../python/requirements-build.txt"
if command -v python3 >/dev/null 2>&1 &&
   ! python3 -c "import nanobind, scikit_build_core, numpy, pytest" >/dev/null 2>&1; then
  echo "[setup] installing the Python build/test requirements: $(grep -v '^#' "$py_reqs" | tr '\n' ' ')"
  python3 -m pip install -q --disable-pip-version-check -r "$py_reqs"
fi
echo "[setup] ok: $(cmake --version | head -1), $(nvcc --version | tail -1)"
