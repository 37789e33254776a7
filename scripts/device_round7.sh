#!/usr/bin/env bash
# Session-3 last device call: end-to-end decode with fused q/k/v and gate/up, then unfused,
# every variant, Llama-3-8B-shaped, batch 1/8/32 (in-tree Python package).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
R=$OUT/e2e; mkdir -p $R
{ cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON -DMIXGEMM_BUILD_TESTS=OFF \
    -DMIXGEMM_BUILD_TOOLS=OFF && cmake --build build -j "$(nproc)"; } > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build $((SECONDS-T0)) s"
export PYTHONPATH=$PWD/build/python
timeout 70 python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 --out $R/e2e-fused.csv > $R/e2e-fused.log 2>&1
echo "fused rc=$? $((SECONDS-T0)) s"; grep -E "^\[e2e\].*batch" $R/e2e-fused.log
timeout 60 python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 --no-fuse --out $R/e2e-unfused.csv > $R/e2e-unfused.log 2>&1
echo "unfused rc=$? $((SECONDS-T0)) s"; grep -E "^\[e2e\].*batch" $R/e2e-unfused.log
