#!/usr/bin/env bash
# session 14, call 9: the weight stream's own time per layer (mixgemm-bench --stream-read) next
# to mixgemm at M = 1 and 16 and cuBLAS fp16, same run.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/r9; rm -rf $R; mkdir -p $R
T0=$SECONDS
cmake -S . -B build-d -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=256x64_1x1x1_coop_splitk > $R/build.log 2>&1 &&
  cmake --build build-d -j 16 --target mixgemm-bench >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -30 $R/build.log; }
echo "build $((SECONDS-T0)) s"
timeout 200 build-d/tools/mixgemm-bench --shapes llama3-8b,seed,llama2-70b --m 1,16 --types f16.u4b8.g128 \
  --baselines cublas_fp16 --stream-read --iters 50 --warmup 5 --verify --csv $R/bench.csv --json $R/bench.json \
  --git-commit "$(cat .s14/commit.txt)" --summary-m none --quiet > $R/bench.txt 2>&1
echo "bench rc=$? at $((SECONDS-T0)) s"
tar czf $OUT/r9.tar.gz -C /tmp r9
python3 - $R/bench.csv <<'PY'
import csv, sys
t = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["status"] == "ok": t[(r["shape"], r["M"], r["kernel"])] = (float(r["us_median"]), r["floor_us"], r["copy_gbps"])
for (s, m, k) in sorted(t):
    if k != "stream_read": continue
    sr, fl, bw = t[(s, m, k)]
    mg = t.get((s, m, "mixgemm"), (float("nan"),))[0]
    cb = t.get((s, m, "cublas_fp16"), (float("nan"),))[0]
    print(f"{s:20s} M={m:>2} floor {float(fl):6.2f}  stream_read {sr:6.2f} ({100*float(fl)/sr:3.0f}% of floor)  mixgemm {mg:6.2f} ({mg/sr:.2f}x stream)  cublas {cb:6.2f}  copy {float(bw):.0f} GB/s")
PY
echo "total $((SECONDS-T0)) s"
