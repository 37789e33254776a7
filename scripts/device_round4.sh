#!/usr/bin/env bash
# Session-3 fourth device call: the W4A8 128 x 256 tile (branch wip/a8-128x256): GPU tests
# of the sm90 family, memcheck of every schedule, SASS check, and every schedule of the
# W4A8 per-channel configs at large M against cuBLAS / cuBLASLt.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
R=/tmp/r4; rm -rf $R; mkdir -p $R
STAGES="build sass tests sanitize" GPU_FILTERS="Sm90* Gemm*" SANITIZE_FILTER="*Sanitize*" LOGS=$R/logs \
  bash scripts/device_check.sh > $R/device_check.txt 2>&1
echo "device_check $((SECONDS-T0)) s"; cat $OUT/summary.txt
B=build/tools/mixgemm-bench
$B --shapes seed,llama2-70b --m 256,512,1024,2048,4096,8192 --types s8.u4b8.gch,e4m3.u4b8.gch --all-schedules \
  --iters 30 --warmup 5 --baselines cublas_fp16,cublaslt_fp8 --verify --fp8-promotion-k 0 --csv $R/a8-wide.csv --json $R/a8-wide.json \
  --summary-m none --quiet > $R/a8-wide.txt 2>&1
echo "bench rc=$? $((SECONDS-T0)) s"
tar czf $OUT/round4.tar.gz -C /tmp r4
python3 - $R/a8-wide.csv <<'PYEOF'
import csv, sys
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1])))
by = defaultdict(dict)
for r in rows:
    if r["status"] != "ok": continue
    k = (r["shape"], r["M"])
    name = r["kernel"] if r["kernel"] != "mixgemm" else r["type_spec"] + ":" + r["schedule"].replace("_1x1x1_coop_splitk", "")
    by[k][name] = float(r["us_median"])
for (s, m), d in by.items():
    fp8 = d.get("cublaslt_fp8", 0)
    print(s, m, "fp8 %.1f" % fp8, " ".join(f"{n.split(':')[0][:4]}{n.split(':')[1][4:] if ':' in n else ''}={fp8/t:.2f}" for n, t in d.items() if ':' in n))
print("bad rows:", [ (r["shape"], r["M"], r["schedule"], r["status"], r["verify"]) for r in rows if r["status"] != "ok" or r["verify"] not in ("", "pass", "loose")][:10])
PYEOF
