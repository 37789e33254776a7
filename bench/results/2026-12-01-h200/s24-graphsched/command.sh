#!/usr/bin/env bash
# Session 24 call 5: does the smallm schedule ranking at M = 1 change inside a CUDA graph? Every smallm schedule
# (--all-schedules) of f16 x u4b8 g128 at M = 1 on the Llama-3-8B layers and the seed shape, event-timed and with
# --graph-batch 32, no baselines.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
R=/tmp/s24c5; rm -rf $R; mkdir -p $R
T0=$SECONDS
(cmake -S . -B build-c5 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_BUILD_TESTS=OFF &&
 cmake --build build-c5 -j 16 --target mixgemm-bench) > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"; gzip $R/build.log
C=$(cat .s24/commit.txt)
for mode in event graph; do
  extra=""; [ $mode = graph ] && extra="--graph-batch 32"
  timeout 150 build-c5/tools/mixgemm-bench --shapes seed,llama3-8b --m 1 --types f16.u4b8.g128 --all-schedules \
    --no-baselines --iters 20 --warmup 3 --settle-ms 100 $extra \
    --csv $R/$mode.csv --git-commit "$C" --summary-m none --quiet > $R/$mode.txt 2>&1
  echo "$mode rc=$? at $((SECONDS - T0)) s"
done
cp .s24/call5.sh $R/command.sh; cp .s24/commit.txt $R/
tar czf $OUT/s24c5.tar.gz -C /tmp s24c5
python3 - $R <<'PY'
import csv, sys, os
R = sys.argv[1]
def load(m):
    d = {}
    for r in csv.DictReader(open(os.path.join(R, m + ".csv"))):
        if r["kernel"] == "mixgemm" and r["us_median"] and r["schedule"].startswith("smallm"):
            d.setdefault(r["shape"], {})[r["schedule"]] = float(r["us_median"])
    return d
e, g = load("event"), load("graph")
for s in e:
    be = min(e[s], key=e[s].get); bg = min(g.get(s, {"-": 0}), key=g.get(s, {"-": 0}).get)
    print(f"{s:20s} best event {be} {e[s][be]:.2f} (graph {g[s].get(be, float('nan')):.2f}); best graph {bg} {g[s][bg]:.2f} (event {e[s].get(bg, float('nan')):.2f})")
    for sc in sorted(e[s], key=e[s].get):
        print(f"   {sc:28s} {e[s][sc]:7.2f} {g[s].get(sc, float('nan')):7.2f}")
PY
echo "total $((SECONDS - T0)) s"
