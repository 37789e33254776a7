#!/usr/bin/env bash
# Session 16, last call: (1) W4A16 at the bar points on the final tree (seed + Llama-2-70B,
# M = 64..1024, f16/bf16 x u4b8 g128, heuristic picks, cuBLAS fp16, verified); (2) the SM clock
# and board power while each 8-bit kernel runs (seed, M = 8192, 1000 timed runs each, nvidia-smi
# sampled every 50 ms): is the fp8 tensor path clocked lower than int8?
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; T0=$SECONDS; R=/tmp/r; rm -rf $R; mkdir -p $R
cp .s16/commit.txt $R/commit.txt
( cmake -S . -B build-f -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=OFF -DMIXGEMM_BUILD_TESTS=OFF \
    -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 &&
  cmake --build build-f -j 16 --target mixgemm-bench ) > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build $((SECONDS-T0)) s"
B=build-f/tools/mixgemm-bench
timeout 240 $B --shapes seed,llama2-70b --m 64,128,256,512,1024 --types f16.u4b8.g128,bf16.u4b8.g128 \
  --baselines cublas_fp16 --iters 30 --warmup 5 --verify --csv $R/w4a16.csv --json $R/w4a16.json \
  --git-commit "$(cat $R/commit.txt)" --summary-m none --quiet > $R/w4a16.txt 2>&1
echo "w4a16 rc=$? $((SECONDS-T0)) s"
clock() {  # $1 name, rest: bench args
  local n=$1; shift
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 50 > $R/clk-$n.csv 2>&1 &
  local pid=$!
  timeout 60 $B --shapes seed --m 8192 --iters 1000 --warmup 50 --cold-l2 off --summary-m none --quiet --csv $R/run-$n.csv "$@" > $R/run-$n.txt 2>&1
  kill $pid; wait $pid 2>/dev/null
}
clock s8g128 --types s8.u4b8.g128 --no-baselines
clock e4m3g128 --types e4m3.u4b8.g128 --no-baselines
clock e4m3gch --types e4m3.u4b8.gch --no-baselines
clock s8gch --types s8.u4b8.gch --no-baselines
clock fp8 --types e4m3.u4b8.gch --baselines-only --baselines cublaslt_fp8
clock int8 --types s8.u4b8.gch --baselines-only --baselines cublaslt_int8
clock fp16 --types f16.u4b8.g128 --baselines-only --baselines cublas_fp16
echo "clocks $((SECONDS-T0)) s"
python3 - $R <<'PY'
import csv, sys, glob, os, statistics
R = sys.argv[1]
rows = [r for r in csv.DictReader(open(os.path.join(R, "w4a16.csv"))) if r["kernel"] == "mixgemm" and r["us_median"]]
print("w4a16 verify:", sum(r["verify"] == "pass" for r in rows), "pass of", len(rows))
for r in rows:
    print(f"{r['shape']:20s} {r['type_spec']:16s} M={int(r['M']):5d} {float(r['us_median']):8.1f} us x_fp16 {float(r['x_cublas_fp16']):.3f} {r['schedule']}")
for n in ["s8g128", "e4m3g128", "e4m3gch", "s8gch", "fp8", "int8", "fp16"]:
    k = [r for r in csv.DictReader(open(os.path.join(R, f"run-{n}.csv"))) if r["us_median"]]
    us = float(k[0]["us_median"]) if k else float("nan")
    smp = []
    for line in open(os.path.join(R, f"clk-{n}.csv")):
        f = [x.strip() for x in line.split(",")]
        try: smp.append((float(f[1].split()[0]), float(f[3].split()[0]), f[5]))
        except Exception: pass
    busy = [s for s in smp if s[1] > 200]  # samples under load
    if busy:
        print(f"{n:9s} {k[0]['kernel'] if k else '?':13s} {us:8.1f} us  SM clock median {statistics.median(s[0] for s in busy):.0f} MHz"
              f" (min {min(s[0] for s in busy):.0f})  power median {statistics.median(s[1] for s in busy):.0f} W  samples {len(busy)}"
              f"  throttle {sorted(set(s[2] for s in busy))}")
    else:
        print(n, us, "no loaded samples", len(smp))
PY
tar czf $OUT/final2.tar.gz -C /tmp r
echo "total $((SECONDS-T0)) s"
