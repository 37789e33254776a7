#!/usr/bin/env bash
# Session 42: session 41's prepared e2e call without the r16 variant (rejected in s42-redpre16/).
# batch 1) with main (session 41's reduction-grid change merged), with that change reverted (revert-redpre.patch) and
# with the 16-contributor first batch (redpre16.patch), each from its own install (restricted sm90 instance set:
# batch 1 runs smallm only), each process with its own fp16 run. Run from the repository root:
#   bash bench/results/2026-12-02-h200/s41-next/call-e2e.sh
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS; R=$PWD; P=$R/bench/results/2026-12-02-h200/s41-next
for v in main revert; do
  d=/tmp/e-$v; rm -rf $d; mkdir -p $d; tar cf - --exclude='./build*' --exclude='./.git' --exclude='./.s*' . | tar xf - -C $d
  [ $v = revert ] && (cd $d && patch -p1 < $P/revert-redpre.patch) >> $OUT/patch.log 2>&1
  [ $v = r16 ] && (cd $d && patch -p1 < $P/redpre16.patch) >> $OUT/patch.log 2>&1
  ( CMAKE_BUILD_PARALLEL_LEVEL=5 python3 -m pip install --no-build-isolation --no-deps -v --target /tmp/py-$v \
      --config-settings=build-dir=$d/build-pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
      --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk $d > $OUT/install-$v.log 2>&1 \
    || echo "INSTALL $v FAILED" ) &
done
wait
echo "installs done at $((SECONDS - t0)) s"; cat $OUT/patch.log
cd /tmp
for v in main revert; do
  PYTHONPATH=/tmp/py-$v timeout 150 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 \
    --variants fp16,w4a16 --mode compile --new-tokens 32 --out $OUT/e2e-$v.csv > $OUT/e2e-$v.log 2>&1
  echo "$v rc=$? at $((SECONDS - t0)) s"
done
gzip -f $OUT/*.log
zgrep -h "^\[e2e\].*tok/s" $OUT/e2e-*.log.gz
