#!/usr/bin/env bash
# Session 31 call 2. (1) The wide tile's two-part exchange (exch) and exchange + arrive-first on every streamed tile
# (exchstream) against main: builds, Sm90 / GemmApi suites, memcheck / racecheck of Sm90Sanitize*, bench base v1 v2 v2 v1
# base at M = 128 / 192 / 256 / 512, 12 layers, f16 / s8 / e4m3 g128. (2) Every sm90 tile (--all-schedules, each with
# the heuristic's split) on the exchstream build, llama2-7b / llama3-8b / llama2-70b / seed at M = 160..768, f16 / s8
# g128: the data for the tile choice (stream-K in the tile model or not).
S=${S:-.s31}
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=128,192,256,512 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0 \
  AB_TEST_FILTER='Sm90.*:GemmApi.*:-Sm90Timing.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*'
timeout 380 bash scripts/device_sm90_multi.sh $S/exch.patch $S/exchstream.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
T0=$SECONDS
timeout 170 /tmp/v2/build/tools/mixgemm-bench --shapes llama2-7b,llama3-8b,llama2-70b,seed --m 160,192,224,256,320,384,512,768 \
  --types f16.u4b8.g128,s8.u4b8.g128 --all-schedules --no-baselines --lt-algos 4 --iters 20 --warmup 3 --settle-ms 0 \
  --csv "$OUT/allsched.csv" --git-commit "$(cat $S/commit.txt)+exchstream" --summary-m none --quiet > "$OUT/allsched.txt" 2>&1
echo "allsched rc=$? $(($(wc -l < "$OUT/allsched.csv") - 1)) rows in $((SECONDS - T0)) s"
