#!/usr/bin/env bash
# Session 39, call 2: the smallm heuristic refit (heur.patch: TM 8's per-contributor cost 0.187 -> 0.75 us, and the
# smallest covering token tile) against main: heuristic picks, ABBA, in CUDA graphs (32 launches per replay) and
# event-timed, on the layers whose picks change (Llama-3-8B, Llama-2-7B) at M = 1 / 4 / 8, four type configs.
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=llama3-8b,llama2-7b AB_MS=1,4,8 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128,f16.u8b128.g128 AB_SETTLE_MS=0
O=$OUT
OUT=$O/graph AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
  timeout 330 bash scripts/device_sm90_multi.sh .s39/heur.patch 2>&1 | tee $O/graph.txt | grep -v "^bench "
echo "=== event-timed (same builds)"
R=/tmp/multi2; rm -rf $R; mkdir -p $R; cp .s39/commit.txt $R/
ev() {  # $1 dir, $2 label
  timeout 60 $1/build/tools/mixgemm-bench --shapes $AB_SHAPES --m $AB_MS --types $AB_TYPES --no-baselines \
    --iters 40 --warmup 3 --settle-ms 0 --csv $R/$2.csv --git-commit "$(cat .s39/commit.txt)" --summary-m none --quiet > $R/$2.txt 2>&1
  echo "bench $2 rc=$?"
}
ev /tmp/v0 base-1; ev /tmp/v1 heur-1; ev /tmp/v1 heur-2; ev /tmp/v0 base-2
python3 scripts/ab_multi_summary.py $R base heur | tee $O/event-summary.txt
tar czf $O/event.tar.gz -C /tmp multi2
