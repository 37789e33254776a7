#!/usr/bin/env bash
# Session 39, call 3: #8's harness (compiled Llama-3-8B step in a CUDA graph, batch 1) with main's smallm heuristic
# ("base") and with the refit (heur.patch), each from its own install (restricted sm90 instance set: batch 1 runs
# smallm only), each process with its own fp16 run; then the package's Python tests on the refit install.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS; R=$PWD
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/env.txt 2>&1
for v in base heur; do
  d=/tmp/e-$v; rm -rf $d; mkdir -p $d; tar cf - --exclude='./build*' --exclude='./.git' --exclude='./.s39' . | tar xf - -C $d
  [ $v = heur ] && (cd $d && patch -p1 < $R/.s39/heur.patch) > $OUT/patch.log 2>&1
  ( CMAKE_BUILD_PARALLEL_LEVEL=8 python3 -m pip install --no-build-isolation --no-deps -v --target /tmp/py-$v \
      --config-settings=build-dir=$d/build-pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
      --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk $d > $OUT/install-$v.log 2>&1 \
    || echo "INSTALL $v FAILED" ) &
done
wait
echo "installs done at $((SECONDS - t0)) s"; cat $OUT/patch.log
cd /tmp
for v in base heur; do
  PYTHONPATH=/tmp/py-$v timeout 230 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 \
    --variants fp16,w4a16,w4a8-s8 --mode compile --new-tokens 32 --out $OUT/e2e-$v.csv > $OUT/e2e-$v.log 2>&1
  echo "$v rc=$? at $((SECONDS - t0)) s"
done
left=$(( 585 - (SECONDS - t0) ))
[ $left -gt 90 ] && (cd $R/tests && PYTHONPATH=/tmp/py-heur timeout $left python3 -m pytest -q -p no:cacheprovider python > $OUT/pytest.log 2>&1; echo "pytest rc=$?: $(tail -1 $OUT/pytest.log)")
gzip -f $OUT/*.log
zgrep -h "^\[e2e\].*tok/s" $OUT/e2e-base.log.gz $OUT/e2e-heur.log.gz
