#!/usr/bin/env bash
# Session 51, call 4: w4a8-e4m3 against w4a8-e4m3-ps (session 50's loose end: the e4m3 partial sums were
# tested, not timed end to end), with fp16 in the same process; compiled Llama-3-8B at batch 1, gqa attention.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target $R/build-s51py \
  --config-settings=build-dir=$R/build-s51pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=e4m3.u4 \
  . > $OUT/install.log 2>&1
echo "install rc=$? at $((SECONDS - t0)) s"
cd /tmp && PYTHONPATH=$R/build-s51py timeout $((560 - SECONDS + t0)) python3 $R/examples/llama_decode.py \
  --models llama3-8b --batches 1 --variants fp16,w4a8-e4m3,w4a8-e4m3-ps --mode compile --new-tokens 32 \
  --out $OUT/e2e-e4m3.csv > $OUT/e2e-e4m3.log 2>&1
echo "e2e rc=$? at $((SECONDS - t0)) s"
grep "batch" $OUT/e2e-e4m3.log | cut -c1-140
gzip -f $OUT/*.log
cut -d, -f1-12 $OUT/e2e-e4m3.csv
