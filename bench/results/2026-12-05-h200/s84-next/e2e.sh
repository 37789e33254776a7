#!/usr/bin/env bash
# Session 84, prepared: #8's end-to-end number on today's kernels. The last run is session 50's (2026-12-03-h200/
# s50-attn/call4: compiled Llama-3-8B, batch 1, W4A16 1.73x fp16, with partial sums 1.74x); sessions 51-83 changed the
# decode kernels (TM 16's unroll, one kernel per variant at TM >= 16, the narrow-layer geometry) and the dispatch
# (256 x 32 at M = 17..32, 256 x 16 at decode on layers of >= 26 Mi weights). Builds the package with the f16 x u4 sm90
# instances only (every schedule of that type config, so the M = 8 / 32 picks are the full build's), then the same
# harness as s50 (--attn gqa, compiled, 32 new tokens) at batch 1, 8 and 32: fp16 / w4a16 / w4a16-ps in one process.
#   bash bench/results/2026-12-05-h200/s84-next/e2e.sh      (repo root; ~6-9 min from a fresh machine, estimate)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS; R=$PWD
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > "$OUT/gpu.txt"
# The caller's MIXGEMM_GIT_COMMIT first: on the device git reads the session's first commit (s86-e2e, s89-e2e).
echo "${MIXGEMM_GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}" > "$OUT/commit.txt"
if ! PYTHONPATH=$R/build-s84py python3 -c "import mixgemm.torch" 2>/dev/null; then
  CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target $R/build-s84py \
    --config-settings=build-dir=$R/build-s84pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 . \
    > "$OUT/install.log" 2>&1
  echo "install rc=$? at $((SECONDS - t0)) s"
fi
cd /tmp
PYTHONPATH=$R/build-s84py timeout $((590 - SECONDS + t0)) python3 $R/examples/llama_decode.py --models llama3-8b \
  --batches ${E2E_BATCHES:-1,8,32} --variants fp16,w4a16,w4a16-ps --mode compile --new-tokens 32 --attn gqa \
  --out "$OUT/e2e.csv" > "$OUT/e2e.log" 2>&1
echo "e2e rc=$? at $((SECONDS - t0)) s"
gzip -f "$OUT"/*.log
zcat "$OUT/e2e.log.gz" | grep -h "^\[e2e\].*batch" | cut -c1-120
