#!/usr/bin/env bash
# Builds mixgemm and runs the whole test suite (CPU tests; GPU tests skip without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd build
# Say once, up front, why the `gpu`-labelled tests will be reported as skipped.
./tests/mixgemm_gpu_tests --gtest_filter='Device.*' 2>&1 | grep -m1 -o 'no CUDA device.*' |
  sed 's/^/[test] gpu-labelled tests skip on this machine: /' || true
ctest --output-on-failure -j "$(nproc)" "$@"
