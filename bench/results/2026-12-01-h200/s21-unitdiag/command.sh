#!/usr/bin/env bash
# Session 21 call 2: (a) diagnostics with unit group scales (d1: GPTQ kernel's tables once per unit
# from scale 1.0, no in-loop build; d2: d1 + the producer copies no scale rows) vs base;
# (b) every 8-bit sm90 tile + smallm at M = 32..256 (heuristic refit data).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
AB_SM90_TYPES=e4m3.u4 AB_SM90_SCHEDULES=128x256_1x1x1_coop_splitk AB_TYPES=e4m3.u4b8.g128,e4m3.u4b8.gch \
AB_MS=256,1024,8192 AB_SETTLE_MS=300 AB_BENCH_EXTRA="--unit-group-scales" \
  bash scripts/device_sm90_multi.sh .s21/d1.patch .s21/d2.patch 2>&1 | tee $OUT/multi.txt
R=/tmp/tiles; rm -rf $R; mkdir -p $R
(cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4,e4m3.u4 -DMIXGEMM_BUILD_TESTS=OFF && cmake --build build -j 16 --target mixgemm-bench) > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "tiles build done $SECONDS s"
B="build/tools/mixgemm-bench --shapes seed,llama2-70b --m 32,64,128,256 --types s8.u4b8.g128,e4m3.u4b8.g128 --iters 20 --warmup 3 --settle-ms 100 --summary-m none --quiet --git-commit $(cat .s21/commit.txt)"
MIXGEMM_PRINT_CONFIG=1 timeout 100 $B --baselines cublas_fp16 --csv $R/heuristic.csv > $R/heuristic.txt 2> $R/heuristic.err; echo "heuristic rc=$? $SECONDS s"
timeout 240 $B --all-schedules --no-baselines --csv $R/allsched.csv > $R/allsched.txt 2>&1; echo "allsched rc=$? $SECONDS s"
cp .s21/run2.sh $R/command.sh
tar czf $OUT/tiles.tar.gz -C /tmp tiles
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
    print(f"{k[0][-12:]:12s} {k[1][:4]:4s} M={k[2]:4s} pick {h[k]['schedule'][:30]:30s} {hu:7.1f} ({f/hu:.2f}x)  best {b[1][:30]:30s} {b[0]:7.1f} ({f/b[0]:.2f}x)")
PY
