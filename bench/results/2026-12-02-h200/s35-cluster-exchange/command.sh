#!/usr/bin/env bash
# Session 35 call 4: the 128 x 256 cluster exchange (cluster.patch) against main, one run (base v1 v1 base), its
# tests and both sanitizers on the exchange cases; and one print-config line showing the cluster launch.
S=${S:-.s35}
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b AB_MS=192,256 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128 AB_SETTLE_MS=150 \
  AB_TEST_FILTER='GemmApi.*:Sm90.*:-Sm90Timing.*' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.*'
timeout 400 bash scripts/device_sm90_multi.sh $S/cluster.patch 2>&1 | grep -v "^bench "
MIXGEMM_PRINT_CONFIG=1 timeout 30 /tmp/v1/build/tools/mixgemm-bench --shapes llama2-70b --m 256 --types s8.u4b8.g128 \
  --no-baselines --iters 3 --warmup 1 --summary-m none 2>&1 | grep -m3 "mixgemm\]" | tee $OUT/print-config.txt
