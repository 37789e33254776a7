#!/usr/bin/env bash
# Session 37, call 2: the end-to-end table of issue #8 with the current kernels (smallm unchanged since
# session 28, sm90 since session 35): both model shapes, batch 1 / 8 / 32, all four variants, each decode
# step one CUDA-graph replay of the eager step; then the compiled step (torch.compile, the bar's harness)
# for the Llama-2-7B shape at batch 1, never measured before. Rows are flushed as they finish.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH CMAKE_BUILD_PARALLEL_LEVEL=16 PYTHONUNBUFFERED=1
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS; R=$PWD
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/env.txt 2>&1
python3 -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__)" >> $OUT/env.txt 2>&1
python3 -m pip install --no-build-isolation --no-deps -v --config-settings=build-dir=build-pip . > $OUT/install.log 2>&1 \
  || { tail -30 $OUT/install.log; gzip -f $OUT/install.log; exit 1; }
gzip -f $OUT/install.log
echo "install ok at $((SECONDS - t0)) s"
cd /tmp
timeout 250 python3 $R/examples/llama_decode.py --models llama3-8b,llama2-7b --batches 1,8,32 --mode graph \
  --new-tokens 32 --out $OUT/e2e-graph.csv > $OUT/e2e-graph.log 2>&1
echo "graph rc=$? at $((SECONDS - t0)) s"
left=$(( 570 - (SECONDS - t0) ))
timeout $left python3 $R/examples/llama_decode.py --models llama2-7b --batches 1 --mode compile \
  --new-tokens 32 --out $OUT/e2e-compile.csv > $OUT/e2e-compile.log 2>&1
echo "compile rc=$? at $((SECONDS - t0)) s"
grep -h "^\[e2e\].*tok/s" $OUT/e2e-graph.log $OUT/e2e-compile.log
