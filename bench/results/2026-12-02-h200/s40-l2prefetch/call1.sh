#!/usr/bin/env bash
# Session 40, call 1: L2 prefetch across layers. (a) mixgemm-bench --gap-us / --l2-prefetch-mb on the
# Llama-3-8B layers at M = 1 (f16 / s8 x u4b8 g128; a G us one-thread spin stands in for a decode
# step's other kernels), and warm L2 for the bound; (b) #8's harness with --l2-prefetch-mb 0,32 for
# fp16 and w4a16; (c) the new GPU tests (C++ and Python).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS; R=$PWD
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/env.txt 2>&1
git rev-parse HEAD > $OUT/commit.txt 2>/dev/null
( cmake -S . -B build-s40 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF > $OUT/build.log 2>&1 && \
  cmake --build build-s40 -j 8 --target mixgemm-bench >> $OUT/build.log 2>&1 && echo "bench built at $((SECONDS - t0)) s" && \
  cmake --build build-s40 -j 8 --target mixgemm_gpu_tests >> $OUT/build.log 2>&1 && echo "gpu tests built at $((SECONDS - t0)) s" ) &
BPID=$!
( CMAKE_BUILD_PARALLEL_LEVEL=8 python3 -m pip install --no-build-isolation --no-deps -v --target /tmp/py-s40 \
    --config-settings=build-dir=$R/build-s40pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
    --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk . > $OUT/install.log 2>&1 \
    && echo "install done at $((SECONDS - t0)) s" || echo "INSTALL FAILED" ) &
IPID=$!
# (a) wait for the bench binary
while [ ! -x build-s40/tools/mixgemm-bench ] && kill -0 $BPID 2>/dev/null; do sleep 2; done
sleep 1
B=build-s40/tools/mixgemm-bench
COMMON="--shapes llama3-8b --m 1 --types f16.u4b8.g128,s8.u4b8.g128 --no-baselines --graph-batch 32 --iters 30 --settle-ms 0 --quiet"
if [ -x $B ]; then
  $B $COMMON --csv $OUT/warm.csv --cold-l2 off > $OUT/warm.log 2>&1; echo "warm rc=$?"
  for g in 0 10; do for mb in 0 64; do
    $B $COMMON --gap-us $g --l2-prefetch-mb $mb --csv $OUT/gap${g}-pf${mb}.csv > $OUT/gap${g}-pf${mb}.log 2>&1
    echo "gap $g pf $mb rc=$? at $((SECONDS - t0)) s"
  done; done
fi
wait $IPID
# (b) the harness
cd /tmp
PYTHONPATH=/tmp/py-s40 timeout 300 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 \
  --variants fp16,w4a16 --mode compile --new-tokens 32 --l2-prefetch-mb 0,32 --out $OUT/e2e.csv > $OUT/e2e.log 2>&1
echo "e2e rc=$? at $((SECONDS - t0)) s"
cd $R
wait $BPID
# (c) tests
left=$(( 570 - (SECONDS - t0) ))
[ $left -gt 30 ] && timeout $left build-s40/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.L2Prefetch*:L2Prefetch.*' > $OUT/gtest.log 2>&1; echo "gtest rc=$?: $(grep -E 'PASSED|FAILED' $OUT/gtest.log | tail -2 | tr '\n' ' ')"
left=$(( 580 - (SECONDS - t0) ))
[ $left -gt 30 ] && (cd tests && PYTHONPATH=/tmp/py-s40 timeout $left python3 -m pytest -q -p no:cacheprovider python/test_gpu.py -k l2_prefetch > $OUT/pytest.log 2>&1; echo "pytest rc=$?: $(tail -1 $OUT/pytest.log)")
gzip -f $OUT/*.log
python3 - <<'PY'
import csv, os
out = os.environ.get("OUT", "device-out")
files = ["warm.csv"] + [f"gap{g}-pf{m}.csv" for g in (0, 10) for m in (0, 64)]
for f in files:
    p = f"{out}/{f}"
    if not os.path.exists(p): continue
    for r in csv.DictReader(open(p)):
        print(f"{f:14s} {r['shape']:20s} {r['type_spec']:15s} {r['schedule'][:22]:22s} {r['us_median']:>8s} {r['status']} {r.get('note','')[-70:]}")
PY
[ -f $OUT/e2e.csv ] && cut -d, -f1-10,19 $OUT/e2e.csv
