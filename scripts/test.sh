#!/usr/bin/env bash
# Builds mixgemm and runs the whole test suite (CPU tests; GPU tests skip without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)" "$@"
