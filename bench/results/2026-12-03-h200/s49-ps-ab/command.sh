#!/usr/bin/env bash
# Session 49, call 1: where the rest of the reduction grids' 152 us went with partial sums.
# (1) per layer, CUDA graphs of 32 launches: gemm vs gemm_partial_sums on Llama-3-8B at M = 1 / 8
#     (f16 and s8 x u4b8 g128), ABAB, beside the pure read; (2) the compiled Llama-3-8B step at batch 1,
#     fp16 / w4a16 / w4a16-ps, with the per-kernel profile (where the step's time goes in each variant).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
B=./.s49/mixgemm-bench
C="--shapes llama3-8b --m 1,8 --types f16.u4b8.g128,s8.u4b8.g128 --graph-batch 32 --iters 40 --no-baselines"
mkdir -p $OUT/ab
$B $C --stream-read --csv $OUT/ab/gemm-1.csv > $OUT/ab.log 2>&1
$B $C --partial-sums --csv $OUT/ab/ab-ps-1.csv >> $OUT/ab.log 2>&1
$B $C --csv $OUT/ab/gemm-2.csv >> $OUT/ab.log 2>&1
$B $C --partial-sums --csv $OUT/ab/ab-ps-2.csv >> $OUT/ab.log 2>&1
echo "bench done at $((SECONDS - t0)) s"
python3 .s49/sum.py $OUT/ab/*.csv | tee $OUT/ab-summary.txt
(cd $OUT && tar czf ab.tgz ab && rm -r ab)
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target /tmp/py-s49 \
    --config-settings=build-dir=$R/build-s49pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
    --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk . > $OUT/install.log 2>&1 \
    && echo "install done at $((SECONDS - t0)) s" || { echo "INSTALL FAILED"; tail -30 $OUT/install.log; gzip -f $OUT/*.log; exit 1; }
cd /tmp
PYTHONPATH=/tmp/py-s49 timeout $((570 - SECONDS + t0)) python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 \
  --variants fp16,w4a16,w4a16-ps --mode compile --new-tokens 32 --out $OUT/e2e.csv --profile-out $OUT/profile.csv > $OUT/e2e.log 2>&1
echo "e2e rc=$? at $((SECONDS - t0)) s"
gzip -f $OUT/*.log
cut -d, -f1-12 $OUT/e2e.csv
grep -E "category" $OUT/profile.csv | cut -d, -f3-7
