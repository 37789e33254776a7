#!/usr/bin/env bash
# Session 24 call 4: what a decode launch costs inside a CUDA graph. mixgemm-bench --stream-read (event-timed rows
# and the new *_graph rows: 32 launches per graph) and the same rows with --graph-batch 32 (every row timed as
# 32 back-to-back launches in one graph), f16 / s8 x u4b8 g128 at M = 1 / 16, cuBLAS fp16 beside,
# seed + Llama-2-70B + Llama-3-8B. The working tree carries the uncommitted bench change (time_graph_batch).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
R=/tmp/s24c4; rm -rf $R; mkdir -p $R
T0=$SECONDS
(cmake -S . -B build-c4 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 -DMIXGEMM_BUILD_TESTS=OFF &&
 cmake --build build-c4 -j 16 --target mixgemm-bench) > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"; gzip $R/build.log
C=$(cat .s24/commit.txt)
for mode in event graph; do
  extra=""; [ $mode = graph ] && extra="--graph-batch 32"
  timeout 200 build-c4/tools/mixgemm-bench --shapes seed,llama2-70b,llama3-8b --m 1,16 --types f16.u4b8.g128,s8.u4b8.g128 \
    --stream-read --baselines cublas_fp16 --iters 20 --warmup 3 --settle-ms 300 $extra --verify \
    --csv $R/$mode.csv --json $R/$mode.json --git-commit "$C" --summary-m none --quiet > $R/$mode.txt 2>&1
  echo "$mode rc=$? at $((SECONDS - T0)) s"
done
cp .s24/call4.sh $R/command.sh; cp .s24/commit.txt $R/; git diff HEAD > $R/uncommitted.patch 2>/dev/null
gzip $R/*.json
tar czf $OUT/s24c4.tar.gz -C /tmp s24c4
python3 - $R <<'PY'
import csv, sys, os
R = sys.argv[1]
def load(m):
    return {(r["shape"], r["M"], r["kernel"], r["type_spec"]): r for r in csv.DictReader(open(os.path.join(R, m + ".csv")))}
e, g = load("event"), load("graph")
print(f"{'shape':20s} {'M':>3s} {'row':22s} {'event us':>9s} {'%floor':>7s} {'graph us':>9s} {'%floor':>7s}")
for k, r in e.items():
    if k[1] not in ("1", "16"): continue
    if k[2] in ("launch_only", "stream_read") and k[1] == "16": continue
    rg = g.get(k)
    name = k[3] if k[2] == "mixgemm" else k[2]
    print(f"{k[0]:20s} {k[1]:>3s} {name:22s} {float(r['us_median']):9.2f} {r['pct_floor'] or '-':>7s} "
          f"{(float(rg['us_median']) if rg and rg['us_median'] else float('nan')):9.2f} {(rg['pct_floor'] if rg else '') or '-':>7s}")
    if k[2] == "stream_read" and k[1] == "1":
        for kk in ("stream_read_graph", "launch_only_graph"):
            x = e.get((k[0], k[1], kk, kk))
            if x: print(f"{k[0]:20s} {k[1]:>3s} {kk:22s} {float(x['us_median']):9.2f} {x['pct_floor'] or '-':>7s}")
PY
echo "total $((SECONDS - T0)) s"
