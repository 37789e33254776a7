#!/usr/bin/env bash
# Session 60, call 6: is call 5's stream-launch cost the deferred reduction grid's? The same two builds (main,
# psnone), t8_w8_o2 forced, f16 / e4m3 g128, M = 1 / 8, seed + Llama-2-70B, with MIXGEMM_SMALLM_DEFER=0 (the split-K
# reduction inside the kernel: one launch per gemm, no programmatic dependent), stream-launched (ev0) and as one-node
# graphs (one0); then ev with the default deferred grid again as the control (ev1). ABBA per pass.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}
t0=$SECONDS
X="--schedule smallm_t8_w8_o2_p0"
for v in 0 1; do
  d=/tmp/v$v; rm -rf $d; mkdir -p $d; tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C $d
  [ $v = 1 ] && (cd $d && patch -p1 --forward < .s60/psnone.patch > /dev/null)
  ( cmake -S $d -B $d/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_SM90_TYPES=f16.u4 \
      -DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk && cmake --build $d/build -j 16 --target mixgemm-bench ) \
    > $OUT/build-v$v.log 2>&1 &
done
wait
echo "built at $((SECONDS - t0)) s"
pass() {  # $1 folder, $2 DEFER value, rest: bench flags
  local d=/tmp/$1 defer=$2; shift 2
  local flags=("$@") r v s
  rm -rf $d; mkdir -p $d
  for r in "v0 base-1" "v1 psnone-1" "v1 psnone-2" "v0 base-2"; do
    v=${r% *}; s=${r#* }
    MIXGEMM_SMALLM_DEFER=$defer timeout 150 /tmp/$v/build/tools/mixgemm-bench --shapes seed,llama2-70b --m 1,8 \
      --types f16.u4b8.g128,e4m3.u4b8.g128 --no-baselines --warmup 3 --settle-ms 100 \
      --csv $d/$s.csv --summary-m none --quiet $X "${flags[@]}" > $d/$s.txt 2>&1
    echo "  $1 $s rc=$? at $((SECONDS - t0)) s"
  done
}
pass ev0 0 --iters 40
pass one0 0 --graph-batch 1 --iters 40
pass ev1 1 --iters 40
tar czf $OUT/passes.tar.gz -C /tmp ev0 one0 ev1
for p in ev0 one0 ev1; do
  echo "== $p"
  python3 scripts/ab_multi_summary.py /tmp/$p base psnone | grep "geomean .*g128 "
done
echo "total $((SECONDS - t0)) s"
