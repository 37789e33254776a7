#!/usr/bin/env bash
# Session 40, call 6: the bench-internal L2 prefetch (tools/bench/fill_kernels.cu, after the library entry was removed)
# re-run: --gap-us 10 with --l2-prefetch-mb 0 / 64 on the Llama-3-8B layers at M = 1 (f16 / s8 x u4b8 g128), graphs.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS
cmake -S . -B build-s40 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF -DMIXGEMM_BUILD_TESTS=OFF > $OUT/build.log 2>&1
cmake --build build-s40 -j 16 --target mixgemm-bench >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
B=build-s40/tools/mixgemm-bench
for mb in 0 64; do
  $B --shapes llama3-8b --m 1 --types f16.u4b8.g128,s8.u4b8.g128 --no-baselines --graph-batch 32 --iters 30 --settle-ms 0 \
    --quiet --gap-us 10 --l2-prefetch-mb $mb --csv $OUT/gap10-pf$mb.csv > $OUT/gap10-pf$mb.log 2>&1
  echo "pf $mb rc=$? at $((SECONDS - t0)) s"
done
gzip -f $OUT/*.log
for f in $OUT/gap10-pf0.csv $OUT/gap10-pf64.csv; do
  python3 -c "
import csv,sys
for r in csv.DictReader(open(sys.argv[1])): print(sys.argv[1].split('/')[-1], r['shape'], r['type_spec'], r['us_median'], r['note'][:70])
" $f
done
