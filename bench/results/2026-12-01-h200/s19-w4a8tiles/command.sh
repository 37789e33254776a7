#!/usr/bin/env bash
# session 19 call 3: every sm90 schedule of the W4A8 bar configs at M = 256 / 512 (is the heuristic's tile the fastest?)
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/s19c3; rm -rf $R; mkdir -p $R
(cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4,e4m3.u4 && cmake --build build -j 16 --target mixgemm-bench) > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build done $SECONDS s"
B="build/tools/mixgemm-bench --shapes seed,llama2-70b --m 256,512 --types s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128,e4m3.u4b8.gch --iters 20 --warmup 3 --settle-ms 150 --summary-m none --quiet --git-commit $(cat .s19/commit.txt)"
MIXGEMM_PRINT_CONFIG=1 timeout 120 $B --baselines cublas_fp16,cublaslt_fp8 --lt-algos 4 --csv $R/heuristic.csv > $R/heuristic.txt 2> $R/heuristic.err; echo "heuristic rc=$? $SECONDS s"
timeout 300 $B --all-schedules --no-baselines --csv $R/allsched.csv > $R/allsched.txt 2>&1; echo "allsched rc=$? $SECONDS s"
cp .s19/allsched.sh $R/command.sh
tar czf $OUT/c3.tar.gz -C /tmp s19c3
python3 - $R <<'PY'
import csv, sys
R = sys.argv[1]
h = {(r["shape"], r["type_spec"], r["M"]): r for r in csv.DictReader(open(R + "/heuristic.csv")) if r["kernel"] == "mixgemm"}
fp16 = {(r["shape"], r["M"]): float(r["us_median"]) for r in csv.DictReader(open(R + "/heuristic.csv")) if r["kernel"] == "cublas_fp16"}
best = {}
for r in csv.DictReader(open(R + "/allsched.csv")):
    if r["kernel"] != "mixgemm" or not r["us_median"]: continue
    k = (r["shape"], r["type_spec"], r["M"])
    if k not in best or float(r["us_median"]) < best[k][0]: best[k] = (float(r["us_median"]), r["schedule"])
for k in sorted(h):
    hu = float(h[k]["us_median"]); b = best.get(k, (float("nan"), "-"))
    f = fp16.get((k[0], k[2]), float("nan"))
    print(f"{k[0][:18]:18s} {k[1]:15s} M={k[2]:4s} pick {h[k]['schedule'][5:34]:29s} {hu:8.1f} ({f/hu:.2f}x fp16)  best {b[1][5:34]:29s} {b[0]:8.1f} ({f/b[0]:.2f}x)")
PY
