#!/usr/bin/env bash
# Session 49, call 2: partial sums over the stream-K partition (make_partial_sums_geometry).
# (1) the GPU suites that cover it and memcheck (test binary built here from .s49/commit.txt + call2.diff),
# (2) per layer, CUDA graphs: gemm vs gemm_partial_sums on Llama-3-8B (and its lm_head) at M = 1 / 8, ABAB,
# (3) the package (built during (1)), its partial-sum GPU test, the compiled Llama-3-8B step at batch 1
#     (fp16 / w4a16 / w4a16-ps, qkv now on gemm in w4a16-ps) with the per-kernel profile, (4) racecheck.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
(CMAKE_BUILD_PARALLEL_LEVEL=14 python3 -m pip install --no-build-isolation --no-deps -v --target /tmp/py-s49 \
    --config-settings=build-dir=$R/build-s49pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
    --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk . > $OUT/install.log 2>&1;
 echo $? > /tmp/install.rc) &
./.s49/mixgemm_gpu_tests --gtest_filter='Smallm*:GemmApi.*:-SmallmTiming.*' > $OUT/tests.log 2>&1
echo "gtest rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED) ' $OUT/tests.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \]|Failure|partial sums" $OUT/tests.log | head -24
timeout 150 compute-sanitizer --tool memcheck ./.s49/mixgemm_gpu_tests --gtest_filter='SmallmSanitize.*' > $OUT/sanitize.log 2>&1
echo "memcheck rc=$? at $((SECONDS - t0)) s: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/sanitize.log | tr '\n' ' ')"
wait
echo "install rc=$(cat /tmp/install.rc) at $((SECONDS - t0)) s"
B=./.s49/mixgemm-bench
C="--shapes llama3-8b --shape 128256x4096 --m 1,8 --types f16.u4b8.g128,s8.u4b8.g128 --graph-batch 32 --iters 40 --no-baselines"
mkdir -p $OUT/ab
$B $C --stream-read --csv $OUT/ab/gemm-1.csv > $OUT/ab/ab.log 2>&1
MIXGEMM_PRINT_CONFIG=1 $B $C --partial-sums --iters 5 --csv /dev/null 2>&1 | grep -E "mixgemm\]" | sort -u > $OUT/ab/print-config-ps.txt
$B $C --partial-sums --csv $OUT/ab/ab-ps-1.csv >> $OUT/ab/ab.log 2>&1
$B $C --csv $OUT/ab/gemm-2.csv >> $OUT/ab/ab.log 2>&1
$B $C --partial-sums --csv $OUT/ab/ab-ps-2.csv >> $OUT/ab/ab.log 2>&1
echo "bench done at $((SECONDS - t0)) s"
python3 .s49/sum.py $OUT/ab/*.csv | tee $OUT/ab/summary.txt
(cd $OUT && tar czf ab.tgz ab && rm -r ab)
PYTHONPATH=/tmp/py-s49 timeout 150 python3 -m pytest -q -x tests/python/test_gpu.py -k "partial_sums" > $OUT/pytest.log 2>&1
echo "pytest rc=$? at $((SECONDS - t0)) s: $(tail -1 $OUT/pytest.log)"
(cd /tmp && PYTHONPATH=/tmp/py-s49 timeout $((555 - SECONDS + t0)) python3 $R/examples/llama_decode.py --models llama3-8b \
  --batches 1 --variants fp16,w4a16,w4a16-ps --mode compile --new-tokens 32 --out $OUT/e2e.csv \
  --profile-out $OUT/profile.csv > $OUT/e2e.log 2>&1; echo "e2e rc=$? at $((SECONDS - t0)) s")
left=$((585 - SECONDS + t0))
if [ $left -gt 20 ]; then
  timeout $left compute-sanitizer --tool racecheck ./.s49/mixgemm_gpu_tests --gtest_filter='SmallmSanitize.*' >> $OUT/sanitize.log 2>&1
  echo "racecheck rc=$? at $((SECONDS - t0)) s: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $OUT/sanitize.log | tail -3 | tr '\n' ' ')"
fi
gzip -f $OUT/*.log
cut -d, -f1-12 $OUT/e2e.csv 2>/dev/null
grep -E "category" $OUT/profile.csv 2>/dev/null | cut -d, -f3-7
