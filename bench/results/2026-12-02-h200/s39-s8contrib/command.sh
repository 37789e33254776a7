#!/usr/bin/env bash
# Session 39, call 4: s8's TM 8 contributor term at 1.5x f16's (s8contrib.patch) against main after the refit:
# heuristic picks, ABBA, in CUDA graphs (32 launches per replay) and event-timed, on the Llama-2-70B layers (only 70B o
# changes its s8 picks, at M <= 8), M = 1 / 2 / 4 / 8, s8 x u4b8 g128 and per-channel.
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=llama2-70b AB_MS=1,2,4,8 \
  AB_TYPES=s8.u4b8.g128,s8.u4b8.gch AB_SETTLE_MS=0
O=$OUT
OUT=$O/graph AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
  timeout 300 bash scripts/device_sm90_multi.sh .s39/s8contrib.patch 2>&1 | tee $O/graph.txt | grep -v "^bench "
echo "=== event-timed (same builds)"
R=/tmp/multi2; rm -rf $R; mkdir -p $R; cp .s39/commit.txt $R/
ev() {  # $1 dir, $2 label
  timeout 60 $1/build/tools/mixgemm-bench --shapes $AB_SHAPES --m $AB_MS --types $AB_TYPES --no-baselines \
    --iters 60 --warmup 3 --settle-ms 0 --csv $R/$2.csv --git-commit "$(cat .s39/commit.txt)" --summary-m none --quiet > $R/$2.txt 2>&1
  echo "bench $2 rc=$?"
}
ev /tmp/v0 base-1; ev /tmp/v1 s8contrib-1; ev /tmp/v1 s8contrib-2; ev /tmp/v0 base-2
python3 scripts/ab_multi_summary.py $R base s8contrib | tee $O/event-summary.txt
tar czf $O/event.tar.gz -C /tmp multi2
