#!/usr/bin/env bash
# Session 47, call 3: what the deferred reduction grid costs a compiled Llama-3-8B W4A16 decode step (batch 1). The
# tree gets .s47/noreduce-diag.patch (MIXGEMM_DIAG_NO_REDUCE=1: no reduction grid at M = 1, outputs wrong on purpose;
# unset: main's behaviour), installed once; then (1) the step's 129 GEMMs alone (session 40's gemm_seq.py) with and
# without the variable, (2) examples/llama_decode.py fp16,w4a16 (main's behaviour), w4a16 with the variable, w4a16
# again without it.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
patch -p1 --forward < .s47/noreduce-diag.patch > $OUT/patch.log 2>&1 || { cat $OUT/patch.log; exit 3; }
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target /tmp/py-s47 \
    --config-settings=build-dir=$R/build-s47pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
    --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk . > $OUT/install.log 2>&1 \
    && echo "install done at $((SECONDS - t0)) s" || { echo "INSTALL FAILED"; tail -20 $OUT/install.log; exit 1; }
cd /tmp
for v in 0 1 0; do
  MIXGEMM_DIAG_NO_REDUCE=$v PYTHONPATH=/tmp/py-s47 timeout 120 python3 $R/.s47/gemm_seq.py $OUT/gemm_seq-$v.csv \
    > $OUT/gemm_seq-$v.log 2>&1
  echo "seq diag=$v rc=$? at $((SECONDS - t0)) s: $(grep graph_step $OUT/gemm_seq-$v.csv)"
done
run() {  # $1 label, $2 diag, $3 variants
  MIXGEMM_DIAG_NO_REDUCE=$2 PYTHONPATH=/tmp/py-s47 timeout 240 python3 $R/examples/llama_decode.py --models llama3-8b \
    --batches 1 --variants $3 --mode compile --new-tokens 32 --out $OUT/e2e-$1.csv > $OUT/e2e-$1.log 2>&1
  echo "e2e $1 rc=$? at $((SECONDS - t0)) s"
}
run a-main 0 fp16,w4a16
run b-noreduce 1 w4a16
run c-main 0 w4a16
gzip -f $OUT/*.log
for f in $OUT/e2e-*.csv; do echo "== $f"; cut -d, -f1-12 $f; done
