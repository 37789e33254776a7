#!/usr/bin/env bash
# Session 50, call 5: w4a8-e4m3 against w4a8-e4m3-ps, compiled Llama-3-8B at batch 1, one process
# (the package with the e4m3 sm90 instances only; the harness's default gqa attention).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target $R/build-s50py \
  --config-settings=build-dir=$R/build-s50pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=e4m3.u4 \
  . > $OUT/install.log 2>&1
echo "install rc=$? at $((SECONDS - t0)) s"
cd /tmp && PYTHONPATH=$R/build-s50py timeout $((205 - SECONDS + t0)) python3 $R/examples/llama_decode.py \
  --models llama3-8b --batches 1 --variants w4a8-e4m3,w4a8-e4m3-ps --mode compile --new-tokens 32 \
  --out $OUT/e2e-e4m3.csv > $OUT/e2e-e4m3.log 2>&1
echo "e2e rc=$? at $((SECONDS - t0)) s"
grep "batch" $OUT/e2e-e4m3.log | cut -c1-120
gzip -f $OUT/*.log
