#!/usr/bin/env bash
# Session 21 call 1: (a) wip/e4m3-wide-7stages vs main (multi, tests + sanitizers);
# (b) operand-power diagnostic: e4m3 g128 / gch with and without --unit-group-scales (base build).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,clocks.sm,power.draw,power.limit,temperature.gpu --format=csv | tee $OUT/smi.txt
AB_SM90_TYPES=e4m3.u4 AB_SM90_SCHEDULES=128x256_1x1x1_coop_splitk AB_TYPES=e4m3.u4b8.g128,e4m3.u4b8.gch \
AB_MS=256,1024,8192 AB_SETTLE_MS=300 \
AB_TEST_FILTER='ConvertGpu*:Sm90.W4A8_E4M3*:Sm90.TailSplit*:Sm90.StreamK*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*' \
  bash scripts/device_sm90_multi.sh .s21/7st.patch 2>&1 | tee $OUT/multi.txt
D=/tmp/diag; mkdir -p $D
B=/tmp/v0/build/tools/mixgemm-bench
run() {  # $1 label, rest flags
  local s=$1; shift
  timeout 120 $B --shapes seed,llama2-70b --m 1024,8192 --types e4m3.u4b8.g128,e4m3.u4b8.gch --no-baselines \
    --iters 20 --warmup 3 --settle-ms 300 --csv $D/$s.csv --git-commit "$(cat .s21/commit.txt)" --summary-m none --quiet "$@" > $D/$s.txt 2>&1
  echo "diag $s rc=$?"
}
run real-1 --verify; run unit-1 --verify --unit-group-scales; run unit-2 --unit-group-scales; run real-2
cp .s21/run1.sh $D/
tar czf $OUT/diag.tar.gz -C /tmp diag
python3 - $D <<'PY'
import csv, sys, os, math
D = sys.argv[1]
def load(s):
    return {(r["shape"], r["type_spec"], int(r["M"])): float(r["us_median"])
            for r in csv.DictReader(open(os.path.join(D, s + ".csv"))) if r["kernel"] == "mixgemm" and r["us_median"]}
r1, r2, u1, u2 = (load(s) for s in ("real-1", "real-2", "unit-1", "unit-2"))
for k in sorted(r1):
    if all(k in d for d in (r2, u1, u2)):
        print(f"{k[0]:20s} {k[1]:16s} {k[2]:5d} real {(r1[k]+r2[k])/2:9.1f} unit/real {(u1[k]+u2[k])/(r1[k]+r2[k]):.3f}")
PY
