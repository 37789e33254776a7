#!/usr/bin/env bash
# Session 38, call 2: #8's harness (compiled Llama-3-8B step in a CUDA graph, batch 1) with the deferred smallm
# reduction (this tree: main + deferred), and the same install with MIXGEMM_SMALLM_DEFER=0 (the in-kernel reduction)
# in a second process, each with its own fp16 run.
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
timeout 250 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 --variants fp16,w4a16,w4a8-s8 --mode compile \
  --new-tokens 32 --out $OUT/e2e-deferred.csv > $OUT/e2e-deferred.log 2>&1
echo "deferred rc=$? at $((SECONDS - t0)) s"
left=$(( 570 - (SECONDS - t0) ))
MIXGEMM_SMALLM_DEFER=0 timeout $left python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 --variants fp16,w4a16 \
  --mode compile --new-tokens 32 --out $OUT/e2e-inkernel.csv > $OUT/e2e-inkernel.log 2>&1
echo "inkernel rc=$? at $((SECONDS - t0)) s"
left=$(( 585 - (SECONDS - t0) ))
[ $left -gt 60 ] && (cd $R && timeout $left python3 -m pytest -q -p no:cacheprovider tests/python > $OUT/pytest.log 2>&1; echo "pytest rc=$?: $(tail -1 $OUT/pytest.log)")
gzip -f $OUT/*.log
zgrep -h "^\[e2e\].*tok/s" $OUT/e2e-deferred.log.gz $OUT/e2e-inkernel.log.gz
