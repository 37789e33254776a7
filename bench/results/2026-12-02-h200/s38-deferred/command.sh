#!/usr/bin/env bash
# Session 38, device call 1: the deferred smallm split-K reduction (deferred.patch) against main:
# tests + sanitizers on the candidate, benches in CUDA graphs (per launch) and event-timed,
# and the candidate with MIXGEMM_SMALLM_DEFER=0 (its in-kernel path) as a same-build control.
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=1,8,16 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0
O=$OUT
OUT=$O/graph AB_TEST_FILTER='Smallm.*:GemmApi.*:-SmallmTiming.*' AB_SANITIZE=1 AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
  timeout 400 bash scripts/device_sm90_multi.sh .s38/deferred.patch 2>&1 | tee $O/graph.txt | grep -v "^bench "
echo "=== event-timed (same builds)"
R=/tmp/multi2; rm -rf $R; mkdir -p $R; cp .s38/commit.txt $R/
ev() {  # $1 dir, $2 label, rest: env
  local d=$1 s=$2; shift 2
  env "$@" timeout 60 $d/build/tools/mixgemm-bench --shapes $AB_SHAPES --m $AB_MS --types $AB_TYPES --no-baselines \
    --iters 40 --warmup 3 --settle-ms 0 --csv $R/$s.csv --git-commit "$(cat .s38/commit.txt)" --summary-m none --quiet > $R/$s.txt 2>&1
  echo "bench $s rc=$?"
}
ev /tmp/v0 base-1; ev /tmp/v1 deferred-1; ev /tmp/v1 inkernel-1 MIXGEMM_SMALLM_DEFER=0; ev /tmp/v1 nocluster-1 MIXGEMM_SMALLM_CLUSTER=0
ev /tmp/v1 nocluster-2 MIXGEMM_SMALLM_CLUSTER=0; ev /tmp/v1 inkernel-2 MIXGEMM_SMALLM_DEFER=0; ev /tmp/v1 deferred-2; ev /tmp/v0 base-2
python3 scripts/ab_multi_summary.py $R base deferred inkernel nocluster | tee $O/event-summary.txt
MIXGEMM_PRINT_CONFIG=1 timeout 30 /tmp/v1/build/tools/mixgemm-bench --shapes llama3-8b --m 1 --types f16.u4b8.g128 --no-baselines \
  --iters 3 --warmup 1 --settle-ms 0 --summary-m none --quiet > $O/print-config.txt 2>&1
tar czf $O/event.tar.gz -C /tmp multi2
