#!/usr/bin/env bash
# Session 50, call 1: W4A8 partial sums in QuantLinear (s32 / f32 parts, the token x channel epilogue
# in torch, the GEMM a programmatic dependent of the quantize kernel). (1) C++ GemmApi.* (new:
# ProgrammaticDependentPartialSumsWaitForTheirProducer), test binary built here from .s50/commit.txt +
# the working-tree diff; (2) the package (f16 / s8 / e4m3 sm90 instances for the prefill) built meanwhile;
# (3) pytest -k partial_sums (GPU); (4) the compiled Llama-3-8B step at batch 1: fp16, w4a8-s8, w4a8-s8-ps.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
(CMAKE_BUILD_PARALLEL_LEVEL=14 python3 -m pip install --no-build-isolation --no-deps -v --target $R/build-s50py \
    --config-settings=build-dir=$R/build-s50pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
    . > $OUT/install.log 2>&1; echo $? > /tmp/install.rc) &
./.s50/mixgemm_gpu_tests --gtest_filter='GemmApi.*' > $OUT/tests.log 2>&1
echo "gtest rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED) ' $OUT/tests.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \]|Failure" -A2 $OUT/tests.log | head -12
grep -E "PartialSums" $OUT/tests.log | head -4
wait
echo "install rc=$(cat /tmp/install.rc) at $((SECONDS - t0)) s"
[ "$(cat /tmp/install.rc)" = 0 ] || { tail -20 $OUT/install.log; }
PYTHONPATH=$R/build-s50py timeout 200 python3 -m pytest -q -p no:cacheprovider -k "partial_sums or gqa" tests/python/test_gpu.py tests/python/test_e2e_harness_cpu.py \
  > $OUT/pytest.log 2>&1
echo "pytest rc=$? at $((SECONDS - t0)) s: $(tail -1 $OUT/pytest.log)"
grep -E "^(FAILED|ERROR)|Error" $OUT/pytest.log | head -10
(cd /tmp && PYTHONPATH=$R/build-s50py timeout $((570 - SECONDS + t0)) python3 $R/examples/llama_decode.py \
  --models llama3-8b --batches 1 --variants fp16,w4a8-s8,w4a8-s8-ps --mode compile --new-tokens 32 \
  --out $OUT/e2e.csv > $OUT/e2e.log 2>&1; echo "e2e rc=$? at $((SECONDS - t0)) s")
grep "^\[e2e\].*batch" $OUT/e2e.log | cut -c1-150
gzip -f $OUT/*.log
cut -d, -f1-12 $OUT/e2e.csv 2>/dev/null
