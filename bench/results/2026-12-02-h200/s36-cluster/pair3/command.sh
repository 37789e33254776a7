#!/usr/bin/env bash
# Session 36 call 5: session 35's cluster exchange with the producer warpgroup's cluster wait moved before the roles
# split and the outgoing half stored without inline asm (pair3.patch, branch wip/sm90-cluster-exchange3) against main, one run (base v1 v1 base), its tests and both
# sanitizers; then trace builds of both and the CTAs' mainloop times at M = 256 (the pair kernels' mainloop ran
# 15-17% longer for e4m3; its producer compiled to the vector datapath, R2UR / LDC, with the wait in thread 0's branch).
S=${S:-.s36}
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
T0=$SECONDS
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b AB_MS=192,256 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128 AB_SETTLE_MS=150 \
  AB_TEST_FILTER='GemmApi.*:Sm90.*:-Sm90Timing.*' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.*'
timeout 420 bash scripts/device_sm90_multi.sh $S/pair3.patch 2>&1 | grep -v "^bench "
python3 scripts/ab_multi_summary.py /tmp/multi base pair3 > $OUT/summary.txt 2>&1
MIXGEMM_PRINT_CONFIG=1 timeout 30 /tmp/v1/build/tools/mixgemm-bench --shapes llama2-70b --m 256 --types s8.u4b8.g128 \
  --no-baselines --iters 3 --warmup 1 --summary-m none 2>&1 | grep "mixgemm\]" | head -12 > $OUT/print-config.txt
echo "A/B done at $((SECONDS - T0)) s"
grep -h "C751" /tmp/multi/build-*.log | cut -c1-160 | sort | uniq -c | head -5
echo "C751x lines: base $(grep -c C751 /tmp/multi/build-base.log) pair3 $(grep -c C751 /tmp/multi/build-pair3.log)"
tar czf $OUT/multi.tar.gz -C /tmp multi
head -40 $OUT/summary.txt
