#!/usr/bin/env bash
# Session 50, call 2: (1) pytest -k "partial_sums or gqa" after the dynamo-reset fix of call 1's failures;
# (2) the compiled Llama-3-8B step at batch 1 with the per-kernel profile: w4a8-s8 against w4a8-s8-ps (call 1:
# ps 3% slower per step although the GEMMs' partial sums save 5.7 us per layer in session 49's A/B);
# (3) the harness's decode attention on the grouped cache as stored (--attn gqa): fp16, w4a16.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
if ! PYTHONPATH=$R/build-s50py python3 -c "import mixgemm.torch" 2>/dev/null; then
  CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target $R/build-s50py \
    --config-settings=build-dir=$R/build-s50pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
    . > $OUT/install.log 2>&1
  echo "install rc=$? at $((SECONDS - t0)) s"
fi
PYTHONPATH=$R/build-s50py timeout 150 python3 -m pytest -q -p no:cacheprovider -k "partial_sums or gqa" \
  tests/python/test_gpu.py tests/python/test_e2e_harness_cpu.py > $OUT/pytest.log 2>&1
echo "pytest rc=$? at $((SECONDS - t0)) s: $(tail -1 $OUT/pytest.log)"
grep -E "^(FAILED|ERROR)|^E  " $OUT/pytest.log | head -10
cd /tmp
PYTHONPATH=$R/build-s50py timeout 260 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 \
  --variants w4a8-s8,w4a8-s8-ps --mode compile --new-tokens 32 --out $OUT/e2e-s8.csv --profile-out $OUT/profile-s8.csv \
  > $OUT/e2e-s8.log 2>&1
echo "e2e s8 rc=$? at $((SECONDS - t0)) s"
PYTHONPATH=$R/build-s50py timeout $((580 - SECONDS + t0)) python3 $R/examples/llama_decode.py --models llama3-8b \
  --batches 1 --variants fp16,w4a16 --mode compile --new-tokens 32 --attn gqa --out $OUT/e2e-gqa.csv \
  > $OUT/e2e-gqa.log 2>&1
echo "e2e gqa rc=$? at $((SECONDS - t0)) s"
grep -h "^\[e2e\].*batch" $OUT/e2e-*.log | cut -c1-150
grep -E "category" $OUT/profile-s8.csv | cut -d, -f3-7
gzip -f $OUT/*.log
