#!/usr/bin/env bash
# Session 4, last device call: the end-to-end decode with the division-free smallm partition
# (fused, every variant, batch 1 and 8), sm90 built for the 4-bit type configs the run uses.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
FINAL=${OUT:-$PWD/device-out}; mkdir -p "$FINAL"
T0=$SECONDS
{ cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON -DMIXGEMM_BUILD_TESTS=OFF \
    -DMIXGEMM_BUILD_TOOLS=OFF -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 && cmake --build build -j 16; } \
  > "$FINAL/build.log" 2>&1 || { tail -20 "$FINAL/build.log"; exit 1; }
echo "build $((SECONDS-T0)) s"
export PYTHONPATH=$PWD/build/python
timeout 100 python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 --batches 1,8 \
  --out "$FINAL/e2e-fused.csv" > "$FINAL/e2e-fused.log" 2>&1
echo "e2e rc=$? at $((SECONDS-T0)) s"; grep -E "^\[e2e\].*(batch|non-finite)" "$FINAL/e2e-fused.log"
