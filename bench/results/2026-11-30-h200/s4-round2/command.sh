#!/usr/bin/env bash
# Session 4, second device call, on main after merging the three branches:
# (1) full build (every instance, Python package) + SASS check + every GPU suite + sanitizers
#     (scripts/device_check.sh), (2) the smallm/sm90 crossover with the new 256 x 64 tile:
#     every schedule at M = 24/32/48 on the Llama-3-8B, seed and Llama-2-70B shapes,
# (3) the end-to-end decode (fused, every variant, batch 1/8/32), with the non-finite trace.
# Everything lands in $OUT (logs.tar.gz, summary.txt, xover.*, e2e.*); a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
STAGES="build sass tests sanitize" CMAKE_ARGS="-DMIXGEMM_BUILD_PYTHON=ON" bash scripts/device_check.sh > "$OUT/check.txt" 2>&1
echo "check done at $((SECONDS-T0)) s"; grep -v "^SASS\|^---" "$OUT/check.txt" | head -20

timeout 170 ./build/tools/mixgemm-bench --shapes llama3-8b,seed,llama2-70b --m 24,32,48 --types f16.u4b8.g128 \
  --all-schedules --baselines cublas_fp16 --iters 20 --warmup 3 --verify --time-limit 140 \
  --csv "$OUT/xover.csv" --json "$OUT/xover.json" --summary-m none --quiet > "$OUT/xover.txt" 2>&1
echo "xover rc=$? at $((SECONDS-T0)) s"

export PYTHONPATH=$PWD/build/python
timeout $((560 - (SECONDS-T0))) python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 \
  --out "$OUT/e2e-fused.csv" > "$OUT/e2e-fused.log" 2>&1
echo "e2e rc=$? at $((SECONDS-T0)) s"; grep -E "^\[e2e\]" "$OUT/e2e-fused.log" | grep -E "batch|non-finite|layer" | head -30

python3 - "$OUT/xover.csv" <<'EOF'
import csv, sys
best = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["status"] != "ok": continue
    k = (r["shape"], r["M"])
    fam = "cublas" if r["kernel"].startswith("cublas") else r["schedule"].split("_")[0]
    t = float(r["us_median"])
    d = best.setdefault(k, {})
    if fam not in d or t < d[fam][0]: d[fam] = (t, r["schedule"])
for k, d in best.items():
    print(*k, " ".join(f"{f}={t:.1f}({s})" for f, (t, s) in sorted(d.items())))
EOF
echo "total $((SECONDS-T0)) s"
