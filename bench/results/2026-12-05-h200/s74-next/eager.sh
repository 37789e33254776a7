#!/usr/bin/env bash
# Session 74, prepared: eager decode (no torch.compile, no CUDA graph) with QuantLinear calling the ops'
# implementations directly (session 74) against the dispatcher path (MIXGEMM_TORCH_DISPATCH=1), same install, one
# call; fp16 eager as the baseline. Llama-3-8B-shaped, batch 1, 32 new tokens. Run after check.sh on the warm machine
# (it reuses build/python from check.sh; ~3-4 min):
#   bash bench/results/2026-12-05-h200/s74-next/eager.sh
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export PYTHONPATH=$PWD/build/python
[ -f build/python/mixgemm/__init__.py ] || { echo "no build/python: run check.sh first"; exit 1; }
A=(--models llama3-8b --batches 1 --mode eager --new-tokens 32)
timeout 200 python3 examples/llama_decode.py "${A[@]}" --variants fp16,w4a16,w4a8-s8 --out "$OUT/eager-direct.csv" \
  > "$OUT/eager-direct.log" 2>&1; echo "direct rc=$?"
MIXGEMM_TORCH_DISPATCH=1 timeout 150 python3 examples/llama_decode.py "${A[@]}" --variants w4a16,w4a8-s8 \
  --out "$OUT/eager-dispatch.csv" > "$OUT/eager-dispatch.log" 2>&1; echo "dispatch rc=$?"
for f in "$OUT"/eager-*.csv; do echo "== $f"; cut -d, -f1-4 "$f" | head -8; done
