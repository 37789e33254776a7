#!/usr/bin/env bash
# Session 48, call 2 (call 1 found the ldo check and a test assumption; fixed): gemm_partial_sums on the H200. (1) the GPU suites that cover it (carried test binary, built
# here from the commit in .s48/commit.txt), (2) the Python package with it (pip install), its GPU test, (3) the
# compiled Llama-3-8B decode at batch 1: fp16, w4a16 and w4a16-ps (the decode GEMMs' partial sums summed by the
# next inductor kernel) in one process.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
./.s48/mixgemm_gpu_tests --gtest_filter='Smallm*:-SmallmTiming.*' > $OUT/tests.log 2>&1
echo "gtest rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED) ' $OUT/tests.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \]|Failure|partial sums" $OUT/tests.log | head -12
# (memcheck / racecheck of SmallmSanitize.*, partial sums included, ran clean in call 1; the kernel is unchanged since)
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target /tmp/py-s48 \
    --config-settings=build-dir=$R/build-s48pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
    --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk . > $OUT/install.log 2>&1 \
    && echo "install done at $((SECONDS - t0)) s" || { echo "INSTALL FAILED"; tail -30 $OUT/install.log; exit 1; }
PYTHONPATH=/tmp/py-s48 timeout 200 python3 -m pytest -q -x tests/python/test_gpu.py -k "partial_sums" \
    > $OUT/pytest.log 2>&1
echo "pytest rc=$? at $((SECONDS - t0)) s: $(tail -1 $OUT/pytest.log)"
cd /tmp
PYTHONPATH=/tmp/py-s48 timeout 260 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 \
  --variants fp16,w4a16,w4a16-ps --mode compile --new-tokens 32 --out $OUT/e2e.csv > $OUT/e2e.log 2>&1
echo "e2e rc=$? at $((SECONDS - t0)) s"
if [ -n "${S48_B8:-}" ]; then
  PYTHONPATH=/tmp/py-s48 timeout $((560 - SECONDS + t0)) python3 $R/examples/llama_decode.py --models llama3-8b \
    --batches 8 --variants fp16,w4a16,w4a16-ps --mode compile --new-tokens 32 --out $OUT/e2e-b8.csv > $OUT/e2e-b8.log 2>&1
  echo "e2e b8 rc=$? at $((SECONDS - t0)) s"
fi
gzip -f $OUT/*.log
cut -d, -f1-12 $OUT/e2e.csv; cut -d, -f1-12 $OUT/e2e-b8.csv 2>/dev/null | tail -n +2
