#!/usr/bin/env bash
# Session 42 (session 39's call 1 re-run after session 41's reduction-grid change): every smallm schedule in CUDA graphs (32 launches per replay) with the deferred split-K
# reduction of session 38, to check the heuristic's picks (its per-contributor term was fitted to the in-kernel
# reduction). Part A: f16 / s8 at M = 1 / 8 on the Llama-3-8B, Llama-2-70B, Llama-2-7B and seed layers;
# part B: e4m3 at M = 1 / 8 and all three types at M = 16 on Llama-3-8B / Llama-2-70B / seed.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS
( cmake -S . -B build-s -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && \
  cmake --build build-s -j 16 --target mixgemm-bench ) > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
C="$(cat bench/results/2026-12-02-h200/s42-allsched/commit.txt)"
B="build-s/tools/mixgemm-bench --all-schedules --no-baselines --graph-batch 32 --iters 20 --warmup 2 --settle-ms 0 --summary-m none --quiet --git-commit $C"
timeout 200 $B --shapes llama3-8b,llama2-70b,llama2-7b,seed --m 1,8 --types f16.u4b8.g128,s8.u4b8.g128 \
  --csv $OUT/allsched-a.csv > $OUT/allsched-a.txt 2>&1
echo "part A rc=$? at $((SECONDS - t0)) s"
left=$(( 560 - (SECONDS - t0) ))
timeout $left $B --shapes llama3-8b,llama2-70b,seed --m 1,8,16 --types e4m3.u4b8.g128,f16.u4b8.g128,s8.u4b8.g128 \
  --csv $OUT/allsched-b.csv > $OUT/allsched-b.txt 2>&1
echo "part B rc=$? at $((SECONDS - t0)) s"
gzip -f $OUT/build.log $OUT/allsched-*.txt
python3 - $OUT/allsched-a.csv $OUT/allsched-b.csv <<'PY'
import csv, sys, os
rows = []
for f in sys.argv[1:]:
    if os.path.exists(f): rows += [r for r in csv.DictReader(open(f)) if r["kernel"] == "mixgemm" and r["us_median"]]
best = {}
for r in rows:
    k = (r["shape"], r["type_spec"], r["M"]); t = float(r["us_median"])
    if k not in best or t < best[k][0]: best[k] = (t, r["schedule"])
print(len(rows), "rows")
for k in sorted(best): print(*k, *best[k])
PY
