#!/usr/bin/env bash
# Session-3 fifth device call (the last of the budget): W4A8 per-channel at large M with the
# 128 x 128 and the new 128 x 256 schedule forced (sm90 only: --all-schedules also times
# smallm in 64-row slabs at M = 8192, which made round 4 run out of time), then the
# end-to-end decode at batch 1 (fp16 vs W4A16) with the linear_rel_err column.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
R=/tmp/r5; rm -rf $R; mkdir -p $R
{ cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON -DMIXGEMM_BUILD_TESTS=OFF &&
  cmake --build build -j "$(nproc)"; } > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build $((SECONDS-T0)) s"
B=build/tools/mixgemm-bench
base="--baselines cublas_fp16,cublaslt_fp8"
for sch in sm90_128x128_1x1x1_coop_splitk sm90_128x256_1x1x1_coop_splitk; do
  timeout 70 $B --shapes seed,llama2-70b --m 1024,4096,8192 --types s8.u4b8.gch,e4m3.u4b8.gch --schedule $sch \
    --iters 20 --warmup 3 $base --verify --fp8-promotion-k 0 --csv $R/a8-$sch.csv --json $R/a8-$sch.json \
    --summary-m none --quiet > $R/a8-$sch.txt 2>&1
  echo "bench $sch rc=$? $((SECONDS-T0)) s"
  base="--no-baselines"
done
tar czf $OUT/round5.tar.gz -C /tmp r5
python3 - $R <<'PYEOF'
import csv, glob, sys
from collections import defaultdict
rows = [r for f in glob.glob(sys.argv[1] + "/a8-*.csv") for r in csv.DictReader(open(f))]
base = {(r["shape"], r["M"], r["kernel"]): float(r["us_median"]) for r in rows if r["kernel"] != "mixgemm" and r["status"] == "ok"}
for r in rows:
    if r["kernel"] != "mixgemm": continue
    fp8 = base.get((r["shape"], r["M"], "cublaslt_fp8"))
    t = float(r["us_median"]) if r["status"] == "ok" else float("nan")
    print(f"{r['shape']:20s} {r['M']:>5s} {r['type_spec']:15s} {r['schedule'][5:12]} {t:9.1f} us  x fp8 {fp8 / t:.2f}  {r['status']} {r['verify']}")
PYEOF
PYTHONPATH=$PWD/build/python timeout 90 python3 examples/llama_decode.py --models llama3-8b --batches 1 \
  --variants fp16,w4a16 --new-tokens 32 --out $R/e2e.csv > $R/e2e.log 2>&1
echo "e2e rc=$? $((SECONDS-T0)) s"; grep "^\[e2e\]" $R/e2e.log | tail -5
tar czf $OUT/round5.tar.gz -C /tmp r5
