#!/usr/bin/env bash
# Session 40, call 4: do the decode step's other kernels make our GEMMs slower than back to back? (a) the step's
# 129 W4A16 GEMMs alone (.s40/gemm_seq.py: graph step time, kernel durations); (b) the compiled Llama-3-8B step
# at batch 1, fp16 and w4a16, with --profile-out (kernel durations per category and the top kernels).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS; R=$PWD
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target /tmp/py-s40 \
    --config-settings=build-dir=$R/build-s40pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
    --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk . > $OUT/install.log 2>&1 \
    && echo "install done at $((SECONDS - t0)) s" || { echo "INSTALL FAILED"; tail -20 $OUT/install.log; exit 1; }
cd /tmp
PYTHONPATH=/tmp/py-s40 timeout 150 python3 $R/.s40/gemm_seq.py $OUT/gemm_seq.csv > $OUT/gemm_seq.log 2>&1
echo "seq rc=$? at $((SECONDS - t0)) s"
PYTHONPATH=/tmp/py-s40 timeout 300 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 \
  --variants fp16,w4a16 --mode compile --new-tokens 32 --out $OUT/e2e.csv --profile-out $OUT/e2e-profile.csv > $OUT/e2e.log 2>&1
echo "e2e rc=$? at $((SECONDS - t0)) s"
gzip -f $OUT/*.log
zcat $OUT/gemm_seq.log.gz | head -14
grep -v ",kernel," $OUT/e2e-profile.csv
grep ",kernel," $OUT/e2e-profile.csv | grep w4a16 | head -12
cut -d, -f1-10 $OUT/e2e.csv
