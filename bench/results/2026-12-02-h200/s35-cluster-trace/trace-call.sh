#!/usr/bin/env bash
# As run in session 35, call 5 (narrowed by the TR_* variables in command.sh): why was the cluster exchange slower
# (../s35-cluster-exchange/: e4m3 1.10x, f16 1.03-1.05x the time where it runs, though its swap is ~1.3 us
# cheaper)? One call: trace builds (-DMIXGEMM_SM90_TRACE) of main and of main + cluster.patch (branch
# wip/sm90-cluster-exchange), f16 / e4m3 u4b8 g128 at M = 256 on Llama-2-70B and the seed shape, the timelines side
# by side (scripts/sm90_trace_summary.py). Look at: the first CTA entry to the first stage landed (a clustered launch
# places both CTAs of a pair in one GPC), the mainloop's length (ml_in -> ml_done: do the paired SMs run their
# block loops slower?), and the end (ml_done -> exit). ~4 min.
#   TR_TYPES, TR_SHAPES, TR_BENCH_TYPES narrow it (session 35 ran TR_TYPES=e4m3.u4 TR_SHAPES=llama2-70b
#   TR_BENCH_TYPES=e4m3.u4b8.g128 with its last device minutes).
#   From the repository root on the device, .sN/cluster.patch copied from here, .sN carried.
S=${S:-.s35}
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
for v in base cluster; do
  d=/tmp/tr-$v; rm -rf $d && mkdir -p $d && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C $d
  [ $v = cluster ] && (cd $d && patch -p1 < $S/cluster.patch > /dev/null)
  ( cmake -S $d -B $d/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=${TR_TYPES:-f16.u4,e4m3.u4} -DMIXGEMM_BUILD_TESTS=OFF \
      -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_TRACE && cmake --build $d/build -j 16 --target mixgemm-bench ) > $OUT/build-$v.log 2>&1 &
done
wait
for v in base cluster; do
  MIXGEMM_SM90_TRACE_FILE=/tmp/trace-$v.txt timeout 90 /tmp/tr-$v/build/tools/mixgemm-bench --shapes ${TR_SHAPES:-seed,llama2-70b} --tp 1 \
    --m 256 --types ${TR_BENCH_TYPES:-f16.u4b8.g128,e4m3.u4b8.g128} --no-baselines --iters 20 --warmup 10 --settle-ms 0 --summary-m none > /dev/null 2>&1
  python3 scripts/sm90_trace_summary.py /tmp/trace-$v.txt > $OUT/trace-$v-summary.txt 2>&1
  gzip -c /tmp/trace-$v.txt > $OUT/trace-$v.txt.gz
  echo "== $v"; grep " med " $OUT/trace-$v-summary.txt | cut -c1-60,71- | sed 's/sm90_\([0-9x]*\)_1x1x1_coop_splitk/\1/'
done
