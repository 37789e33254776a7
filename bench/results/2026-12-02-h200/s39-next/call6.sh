#!/usr/bin/env bash
# Session 39, call 6: TM 16 contributor term 3x for every type but e4m3 (tm16.patch) against main:
# heuristic picks, ABBA, in CUDA graphs and event-timed, on the Llama-3-8B and Llama-2-70B layers, M = 9 / 12 / 16.
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=llama3-8b,llama2-70b AB_MS=9,12,16 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,f16.u8b128.g128 AB_SETTLE_MS=0
O=$OUT
OUT=$O/graph AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
  timeout 200 bash scripts/device_sm90_multi.sh .s39/tm16.patch 2>&1 | tee $O/graph.txt | grep -v "^bench "
echo "=== event-timed (same builds)"
R=/tmp/multi2; rm -rf $R; mkdir -p $R; cp .s39/commit.txt $R/
ev() {  # $1 dir, $2 label
  timeout 60 $1/build/tools/mixgemm-bench --shapes $AB_SHAPES --m $AB_MS --types $AB_TYPES --no-baselines \
    --iters 60 --warmup 3 --settle-ms 0 --csv $R/$2.csv --git-commit "$(cat .s39/commit.txt)" --summary-m none --quiet > $R/$2.txt 2>&1
  echo "bench $2 rc=$?"
}
ev /tmp/v0 base-1; ev /tmp/v1 tm16-1; ev /tmp/v1 tm16-2; ev /tmp/v0 base-2
python3 scripts/ab_multi_summary.py $R base tm16 | tee $O/event-summary.txt
tar czf $O/event.tar.gz -C /tmp multi2
