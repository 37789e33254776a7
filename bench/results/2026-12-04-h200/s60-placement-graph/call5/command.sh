#!/usr/bin/env bash
# Session 60, call 5: what in the event-timed run makes the moved-loop build (psnone.patch) slower, when 32 launches
# back to back in a graph make it faster (call 2, ../s60-placement-graph/)? Same two binaries, t8_w8_o2 forced,
# f16 / bf16 / e4m3 g128, M = 1 / 8, seed + Llama-2-70B, ABBA per pass:
#   pass 1 (device_sm90_multi.sh): graphs of 32 launches, each after a 5 us one-thread spin kernel (--gap-us 5: the
#           gemm's time after a gap, a stand-in for a decode step's other kernels);
#   pass 2: graphs of ONE launch (--graph-batch 1): one gemm per replay between two events, graph-launched;
#   pass 3: event-timed (stream launches), as call 2's event pass but with the schedule forced.
set -uo pipefail
D=$(dirname "$0")
OUT=${OUT:-$PWD/device-out}
t0=$SECONDS
X="--schedule smallm_t8_w8_o2_p0"
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b AB_MS=1,8 \
  AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=100 \
  AB_BENCH_EXTRA="$X --graph-batch 32 --gap-us 5 --iters 40"
OUT=$OUT/gap5 bash scripts/device_sm90_multi.sh "$D/psnone.patch" > $OUT/gap5.log 2>&1
echo "pass 1 done at $((SECONDS - t0)) s"
pass() {  # $1 folder name, rest: bench flags
  local d=/tmp/$1; shift
  local flags=("$@") r v s
  rm -rf $d; mkdir -p $d
  for r in "v0 base-1" "v1 psnone-1" "v1 psnone-2" "v0 base-2"; do
    v=${r% *}; s=${r#* }
    timeout 150 /tmp/$v/build/tools/mixgemm-bench --shapes seed,llama2-70b --m 1,8 \
      --types f16.u4b8.g128,bf16.u4b8.g128,e4m3.u4b8.g128 --no-baselines --warmup 3 --settle-ms 100 \
      --csv $d/$s.csv --summary-m none --quiet $X "${flags[@]}" > $d/$s.txt 2>&1
    echo "  $s rc=$? at $((SECONDS - t0)) s"
  done
}
pass one --graph-batch 1 --iters 40
pass ev --iters 40
tar czf $OUT/passes.tar.gz -C /tmp one ev
for p in gap5 one ev; do
  echo "== $p"
  dir=/tmp/$p; [ $p = gap5 ] && dir=/tmp/multi
  python3 scripts/ab_multi_summary.py $dir base psnone | grep "geomean .*g128 "
done
echo "total $((SECONDS - t0)) s"
