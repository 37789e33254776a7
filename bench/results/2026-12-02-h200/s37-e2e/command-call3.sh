#!/usr/bin/env bash
# Session 37, call 3: the compiled step (torch.compile in a CUDA graph, #8's bar harness) on the Llama-3-8B shape:
# batch 1 with all four variants (w4a8-e4m3 never measured compiled), then batch 8 and 32 for fp16 and w4a16.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH CMAKE_BUILD_PARALLEL_LEVEL=16 PYTHONUNBUFFERED=1
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS; R=$PWD
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/env.txt 2>&1
python3 -m pip install --no-build-isolation --no-deps -v --config-settings=build-dir=build-pip . > $OUT/install.log 2>&1 \
  || { tail -30 $OUT/install.log; gzip -f $OUT/install.log; exit 1; }
gzip -f $OUT/install.log
echo "install ok at $((SECONDS - t0)) s"
cd /tmp
timeout 260 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 --mode compile \
  --new-tokens 32 --out $OUT/e2e-compile-b1.csv > $OUT/e2e-compile-b1.log 2>&1
echo "b1 rc=$? at $((SECONDS - t0)) s"
left=$(( 575 - (SECONDS - t0) ))
timeout $left python3 $R/examples/llama_decode.py --models llama3-8b --batches 8,32 --variants fp16,w4a16 --mode compile \
  --new-tokens 32 --out $OUT/e2e-compile-b8-32.csv > $OUT/e2e-compile-b8-32.log 2>&1
echo "b8/32 rc=$? at $((SECONDS - t0)) s"
grep -h "^\[e2e\].*tok/s" $OUT/e2e-compile-b1.log $OUT/e2e-compile-b8-32.log
