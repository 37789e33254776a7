#!/usr/bin/env bash
# Quickstart: install what is missing, build, and run the demo (quantize -> prepack -> gemm -> check).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/tools/mixgemm-demo "$@"
