#!/usr/bin/env bash
# Session 21 call 4: the 8-bit time model (wip/a8-time-model, this tree): its picks at M = 160..384
# against every relevant tile forced, and the W4A8 bar configs with cuBLAS fp16 / cuBLASLt fp8.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/a8model; rm -rf $R; mkdir -p $R
(cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4,e4m3.u4 -DMIXGEMM_BUILD_TESTS=OFF && cmake --build build -j 16 --target mixgemm-bench) > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build done $SECONDS s"
B="build/tools/mixgemm-bench --shapes seed,llama2-70b --shape 4096x14336 --m 160,192,256,320,384 --iters 20 --warmup 3 --settle-ms 150 --summary-m none --quiet --git-commit $(cat .s21/commit.txt)"
MIXGEMM_PRINT_CONFIG=1 timeout 200 $B --types s8.u4b8.g128,e4m3.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.gch --baselines cublas_fp16,cublaslt_fp8 --lt-algos 4 --verify --csv $R/heuristic.csv > $R/heuristic.txt 2> $R/heuristic.err; echo "heuristic rc=$? $SECONDS s"
for s in 128x128 128x256 256x64; do
  timeout 120 $B --types s8.u4b8.g128,e4m3.u4b8.g128 --no-baselines --schedule sm90_${s}_1x1x1_coop_splitk --csv $R/forced_$s.csv > $R/forced_$s.txt 2>&1; echo "forced $s rc=$? $SECONDS s"
done
cp .s21/run4.sh $R/command.sh
sort -u $R/heuristic.err > $R/heuristic-print-config.txt
tar czf $OUT/a8model.tar.gz -C /tmp a8model
python3 - $R <<'PY'
import csv, sys, glob
R = sys.argv[1]
h = {(r["shape"], r["type_spec"], r["M"]): r for r in csv.DictReader(open(R + "/heuristic.csv")) if r["kernel"] == "mixgemm"}
base = {(r["shape"], r["M"], r["kernel"]): float(r["us_median"]) for r in csv.DictReader(open(R + "/heuristic.csv")) if r["kernel"] != "mixgemm" and r["us_median"]}
forced = {}
for f in glob.glob(R + "/forced_*.csv"):
    for r in csv.DictReader(open(f)):
        if r["kernel"] == "mixgemm" and r["us_median"]:
            forced.setdefault((r["shape"], r["type_spec"], r["M"]), {})[r["schedule"][5:12]] = float(r["us_median"])
for k in sorted(h, key=lambda k: (k[1], k[0], int(k[2]))):
    hu = float(h[k]["us_median"]); f16 = base.get((k[0], k[2], "cublas_fp16"), float("nan")); f8 = base.get((k[0], k[2], "cublaslt_fp8"), float("nan"))
    fs = " ".join(f"{s}:{v:.1f}" for s, v in sorted(forced.get(k, {}).items()))
    print(f"{k[0][-12:]:12s} {k[1][:14]:14s} M={k[2]:4s} {h[k]['schedule'][5:12]} {hu:7.1f} {f16/hu:.2f}x16 {f8/hu:.2f}x8 {h[k]['verify']:5s} | {fs}")
PY
