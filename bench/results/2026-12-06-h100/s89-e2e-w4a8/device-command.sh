#!/usr/bin/env bash
# Session 89, third call's other-card branch: #8's harness (s84-next/e2e.sh's, session 50's: --attn gqa, compiled, 32 new
# tokens) with the W4A8 variants at batch 1, which have not run on an H100: fp16, w4a8-s8, w4a8-e4m3, w4a16 in one process.
# The package is built with the f16 / s8 / e4m3 x u4 sm90 instances (grouped e4m3 decodes on sm90's 256 x 16).
#   bash bench/results/2026-12-06-h200/s89-next/e2e-w4a8.sh      (repo root; ~9 min from a fresh machine, estimate)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS; R=$PWD
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > "$OUT/gpu.txt"
echo "${MIXGEMM_GIT_COMMIT:-unknown}" > "$OUT/commit.txt"
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target $R/build-s89py \
  --config-settings=build-dir=$R/build-s89pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 . \
  > "$OUT/install.log" 2>&1
echo "install rc=$? at $((SECONDS - t0)) s"
cd /tmp
PYTHONPATH=$R/build-s89py timeout $((${E2E_TOTAL:-560} - SECONDS + t0)) python3 $R/examples/llama_decode.py --models llama3-8b \
  --batches 1 --variants fp16,w4a8-s8,w4a8-e4m3,w4a16 --mode compile --new-tokens 32 --attn gqa \
  --out "$OUT/e2e.csv" > "$OUT/e2e.log" 2>&1
echo "e2e rc=$? at $((SECONDS - t0)) s"
gzip -f "$OUT"/*.log
zcat "$OUT/e2e.log.gz" | grep -h "^\[e2e\].*batch" | cut -c1-120
