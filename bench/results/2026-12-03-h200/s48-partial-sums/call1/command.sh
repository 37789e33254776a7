#!/usr/bin/env bash
# Session 48, call 1: gemm_partial_sums on the H200. (1) the GPU suites that cover it (carried test binary, built
# here from the commit in .s48/commit.txt), (2) the Python package with it (pip install), its GPU test, (3) the
# compiled Llama-3-8B decode at batch 1: fp16, w4a16 and w4a16-ps (the decode GEMMs' partial sums summed by the
# next inductor kernel) in one process.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
./.s48/mixgemm_gpu_tests --gtest_filter='Smallm*:GemmApi.*:-SmallmTiming.*' > $OUT/tests.log 2>&1
echo "gtest rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED) ' $OUT/tests.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \]|Failure|partial sums" $OUT/tests.log | head -20
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool ./.s48/mixgemm_gpu_tests --gtest_filter='SmallmSanitize.*' > $OUT/$tool.log 2>&1
  echo "$tool rc=$? at $((SECONDS - t0)) s: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/$tool.log | tr '\n' ' ')"
done
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target /tmp/py-s48 \
    --config-settings=build-dir=$R/build-s48pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
    --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk . > $OUT/install.log 2>&1 \
    && echo "install done at $((SECONDS - t0)) s" || { echo "INSTALL FAILED"; tail -30 $OUT/install.log; exit 1; }
PYTHONPATH=/tmp/py-s48 timeout 200 python3 -m pytest -q -x tests/python/test_gpu.py -k "partial_sums or compile or opcheck" \
    > $OUT/pytest.log 2>&1
echo "pytest rc=$? at $((SECONDS - t0)) s: $(tail -1 $OUT/pytest.log)"
cd /tmp
PYTHONPATH=/tmp/py-s48 timeout 300 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 \
  --variants fp16,w4a16,w4a16-ps --mode compile --new-tokens 32 --out $OUT/e2e.csv > $OUT/e2e.log 2>&1
echo "e2e rc=$? at $((SECONDS - t0)) s"
gzip -f $OUT/*.log
cut -d, -f1-12 $OUT/e2e.csv
