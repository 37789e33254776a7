#!/usr/bin/env bash
# session 18 call 2: does a row's power state decide its time? The same points four ways:
# D1 --verify (the sweep's way: CPU pauses before each mixgemm row, none before the baselines),
# D2 no verify, D3 --settle-ms 300 (every row timed after 300 ms of its own kernel back to back),
# D4 --idle-ms 500 (every row starts from 500 ms of idle GPU). nvidia-smi sampled during each.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; R=/tmp/pw; rm -rf $R; mkdir -p $R
T0=$SECONDS
( cmake -S . -B build-pw -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,e4m3.u4 &&
  cmake --build build-pw -j 16 --target mixgemm-bench ) > $R/build.log 2>&1 || echo "BUILD FAILED"
echo "build done at $((SECONDS-T0)) s"
nvidia-smi -q > $R/gpu.txt 2>&1
COMMON=(--shapes seed,llama2-70b --m 64,1024,8192 --types f16.u4b8.g128,e4m3.u4b8.gch --baselines cublas_fp16,cublaslt_fp8
        --lt-algos 4 --iters 20 --warmup 3 --git-commit "$(cat .s18/commit.txt)" --summary-m none --quiet)
run() {  # $1 name, rest: extra flags
  local n=$1; shift
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 100 > $R/clk-$n.csv 2>&1 &
  local smi=$!
  timeout 170 build-pw/tools/mixgemm-bench "${COMMON[@]}" "$@" --csv $R/$n.csv > $R/$n.txt 2>&1
  echo "$n rc=$? at $((SECONDS-T0)) s"
  kill $smi; wait $smi 2>/dev/null
}
run d1-verify --verify
run d2-plain
run d3-settle --settle-ms 300
run d4-idle --idle-ms 500
tar czf $OUT/pw.tar.gz -C /tmp pw
python3 - $R <<'PY'
import csv, sys, os
R = sys.argv[1]
runs = ["d1-verify", "d2-plain", "d3-settle", "d4-idle"]
data = {}
for n in runs:
    p = os.path.join(R, n + ".csv")
    if not os.path.exists(p): continue
    for r in csv.DictReader(open(p)):
        if r["us_median"]:
            data.setdefault((r["shape"], int(r["M"]), r["kernel"] if r["kernel"] != "mixgemm" else r["type_spec"]), {})[n] = float(r["us_median"])
print("us median per mode: " + " / ".join(runs))
for k in sorted(data):
    print(f"{k[0]:18s} M={k[1]:5d} {k[2]:16s} " + " ".join(f"{data[k].get(n, 0):9.1f}" for n in runs))
PY
echo "total $((SECONDS-T0)) s"
