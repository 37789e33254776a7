#!/usr/bin/env bash
# Session 38, call 4: every smallm schedule at M = 1 / 8 in CUDA graphs with the deferred reduction (main), to see
# whether the heuristic's picks (fitted to the in-kernel reduction) are still the fastest.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS
( cmake -S . -B build-s -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && \
  cmake --build build-s -j 16 --target mixgemm-bench ) > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
timeout 240 build-s/tools/mixgemm-bench --all-schedules --shapes llama3-8b,llama2-70b,seed --m 1,8 \
  --types f16.u4b8.g128,s8.u4b8.g128 --no-baselines --graph-batch 32 --iters 20 --warmup 2 --settle-ms 0 \
  --csv $OUT/allsched-graph.csv --git-commit "$(cat .s38/commit.txt)" --summary-m none --quiet > $OUT/allsched-graph.txt 2>&1
echo "bench rc=$? at $((SECONDS - t0)) s"
gzip -f $OUT/build.log $OUT/allsched-graph.txt
python3 - $OUT/allsched-graph.csv <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["kernel"] == "mixgemm" and r["us_median"]]
best = {}
for r in rows:
    k = (r["shape"], r["type_spec"], r["M"])
    t = float(r["us_median"])
    if k not in best or t < best[k][0]: best[k] = (t, r["schedule"])
print(len(rows), "rows")
for k in sorted(best): print(*k, *best[k])
PY
