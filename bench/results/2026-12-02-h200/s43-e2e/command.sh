#!/usr/bin/env bash
# Session 43 call 3: the compiled Llama-3-8B-shaped decode at batch 8 and 32 (fp16, w4a16, w4a8-s8), last measured in
# session 37 (s37-e2e/) before the deferred smallm reduction (s38), the heuristic refits (s39, s42) and the reduction
# grid's early parameter work (s41). pip install of the whole package, then examples/llama_decode.py.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1 CMAKE_BUILD_PARALLEL_LEVEL=16
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS
python3 -m pip install --no-build-isolation --no-deps -v --config-settings=build-dir=build-pip . > $OUT/install.log 2>&1 \
  || { echo "INSTALL FAILED"; tail -20 $OUT/install.log; exit 1; }
echo "installed at $((SECONDS - t0)) s"
cd /tmp
timeout 470 python3 $OLDPWD/examples/llama_decode.py --models llama3-8b --batches 8,32 --variants fp16,w4a16,w4a8-s8 \
  --mode compile --new-tokens 32 --out $OUT/e2e.csv > $OUT/e2e.log 2>&1
echo "e2e rc=$? at $((SECONDS - t0)) s"
gzip -f $OUT/install.log
grep -h "^\[e2e\].*tok/s" $OUT/e2e.log
# Call 4, the same warm machine right after (the package installed by call 3), from the repository root:
#   cd /tmp && timeout 400 python3 $OLDPWD/examples/llama_decode.py --models llama2-7b --batches 1 \
#     --variants fp16,w4a16,w4a8-s8,w4a8-e4m3 --mode compile --new-tokens 32 --out $OUT/e2e-llama2.csv
# Call 5, the same machine right after:
#   cd /tmp && timeout 250 python3 $OLDPWD/examples/llama_decode.py --models llama3-8b --batches 8,32 \
#     --variants w4a8-e4m3 --mode compile --new-tokens 32 --out $OUT/e2e-e4m3.csv
