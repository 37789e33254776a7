#!/usr/bin/env bash
# Session 31 call 4: the exchange as it would merge (exch3; exchstream3 = + arrive-first on every streamed tile) (compile-time token half in the reduction loop; call 3 run-time
# predicate cost 2-3% on 4-part tiles) against main: builds, Sm90 / GemmApi suites, memcheck / racecheck of
# Sm90Sanitize*, bench base v1 v2 v2 v1 base at M = 192 / 256 / 512, seed + Llama-2-70B + Llama-3-8B, f16 / s8 / e4m3 g128.
S=${S:-.s31}
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=192,256,512 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0 \
  AB_TEST_FILTER='Sm90.*:GemmApi.*:-Sm90Timing.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*'
timeout 400 bash scripts/device_sm90_multi.sh $S/exch3.patch $S/exchstream3.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
# (2) exchstream3 also carries the 16-bit pick change (tile ranked by its own split above M = 128): the heuristic's
# picks of both builds where that rule changes the tile (Llama-2-7B / Llama-3-8B / Llama-2-70B, M = 160..768, f16 g128).
for r in 1 2; do for v in 1 2; do
  timeout 60 /tmp/v$v/build/tools/mixgemm-bench --shapes llama2-7b,llama3-8b,llama2-70b --m 160,192,224,256,320,384,768 \
    --types f16.u4b8.g128 --no-baselines --lt-algos 4 --iters 20 --warmup 3 --settle-ms 0 \
    --csv "$OUT/pick-v$v-$r.csv" --git-commit "$(cat $S/commit.txt)+v$v" --summary-m none --quiet > "$OUT/pick-v$v-$r.txt" 2>&1
  echo "pick v$v run $r rc=$?"
done; done
