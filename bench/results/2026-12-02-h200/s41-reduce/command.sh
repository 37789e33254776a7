#!/usr/bin/env bash
# Session 41, call 4: what the deferred split-K reduction grid costs on its own. ncu (real clocks, caches not flushed:
# the partials are L2-resident as in a real launch) times every smallm_kernel / smallm_reduce_kernel launch of a short
# mixgemm-bench run per (layer, forced schedule), M = 1, f16 x u4b8 g128. Under ncu kernels run serialized: the reduce
# grid's duration is its own work (in a graph it overlaps the GEMM grid's drain through PDL).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT/r
t0=$SECONDS
cmake -S . -B build-b -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF -DMIXGEMM_BUILD_TESTS=OFF > $OUT/r/build.log 2>&1 && \
  cmake --build build-b -j 16 --target mixgemm-bench >> $OUT/r/build.log 2>&1 || { tail -20 $OUT/r/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
B=build-b/tools/mixgemm-bench
for shape in 4096x14336 28672x4096 6144x4096 4096x4096 8192x8192 8192x21760; do
  for s in t8_w8_o1 t8_w8_o2 t8_w4_o4; do
    timeout 60 ncu --clock-control none --cache-control none --kernel-name regex:'^smallm_' --launch-skip 4 --launch-count 6 \
      --metrics gpu__time_duration.sum --csv $B --shape $shape --m 1 --types f16.u4b8.g128 --schedule smallm_${s}_p0 \
      --no-baselines --iters 3 --warmup 2 --settle-ms 0 --quiet > $OUT/r/ncu-$shape-$s.csv 2> $OUT/r/ncu-$shape-$s.err
  done
  echo "$shape at $((SECONDS - t0)) s"
done
python3 - <<'PY' | tee $OUT/reduce-times.txt
import csv, glob, os, statistics, collections
out = os.environ.get("OUT", "device-out")
print(f"{'shape':12s} {'sched':10s} {'gemm us':>8s} {'reduce us':>9s}  (medians of the profiled launches)")
for path in sorted(glob.glob(f"{out}/r/ncu-*.csv")):
    shape, s = os.path.basename(path)[4:-4].split("-", 1)
    lines = [l for l in open(path) if l.startswith('"')]
    t = collections.defaultdict(list)
    for r in csv.DictReader(lines):
        if r.get("Metric Name") == "gpu__time_duration.sum":
            k = "reduce" if "reduce" in r["Kernel Name"] else "gemm"
            v = float(r["Metric Value"].replace(",", ""))
            t[k].append(v / 1e3 if r["Metric Unit"] == "nsecond" else v)
    g = statistics.median(t["gemm"]) if t["gemm"] else float("nan")
    d = statistics.median(t["reduce"]) if t["reduce"] else float("nan")
    print(f"{shape:12s} {s:10s} {g:8.2f} {d:9.2f}  n={len(t['gemm'])}/{len(t['reduce'])}")
PY
(cd $OUT && tar czf results.tgz r && rm -rf r)
echo "done at $((SECONDS - t0)) s"
