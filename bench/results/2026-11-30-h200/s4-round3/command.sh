#!/usr/bin/env bash
# Session 4, third device call, on main 134f895+ (the branches merged, the refit heuristic):
# (1) build (every instance + Python package), (2) the w4a8-e4m3 batch-1 NaN: the e2e run of
# that variant alone, whose trace diagnoses the first non-finite linear under every schedule,
# (3) the W4A8 smallm/sm90 crossover (every schedule, M = 24/32/48/64), (4) the standard sweep
# (seed + Llama-2-70B, M = 1..8192, W4A16 f16/bf16 g128, W4A8 s8/e4m3 g128 and per-channel,
# every baseline) for docs/performance.md.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
FINAL=${OUT:-$PWD/device-out}; OUT=/tmp/s4r3; rm -rf "$OUT"; mkdir -p "$OUT" "$FINAL"
trap 'tar czf "$FINAL/round3.tar.gz" -C /tmp s4r3' EXIT  # the device tool returns <= 8 files
T0=$SECONDS
{ cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON &&
  cmake --build build -j 16; } > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build at $((SECONDS-T0)) s"

export PYTHONPATH=$PWD/build/python
timeout 120 python3 examples/llama_decode.py --models llama3-8b --new-tokens 8 --batches 1 \
  --variants fp16,w4a8-e4m3 --out "$OUT/e2e-e4m3.csv" > "$OUT/e2e-e4m3.log" 2>&1
echo "e2e e4m3 rc=$? at $((SECONDS-T0)) s"; grep -E "^\[e2e\]" "$OUT/e2e-e4m3.log" | grep -vE "built with|quantized \+|harness vs" | head -40

timeout 150 ./build/tools/mixgemm-bench --shapes llama3-8b,seed,llama2-70b --m 24,32,48,64 \
  --types s8.u4b8.g128,e4m3.u4b8.g128 --all-schedules --baselines cublas_fp16 --iters 20 --warmup 3 --verify \
  --time-limit 110 --csv "$OUT/xover-a8.csv" --json "$OUT/xover-a8.json" --summary-m none --quiet > "$OUT/xover-a8.txt" 2>&1
echo "xover-a8 rc=$? at $((SECONDS-T0)) s"
python3 - "$OUT/xover-a8.csv" <<'EOF'
import csv, sys
best = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["status"] != "ok": continue
    k = (r["shape"], r["M"], r["a_type"] if not r["kernel"].startswith("cublas") else "")
    fam = "cublas" if r["kernel"].startswith("cublas") else r["schedule"].split("_")[0]
    t = float(r["us_median"]); d = best.setdefault(k, {})
    if fam not in d or t < d[fam][0]: d[fam] = (t, r["schedule"][:18])
for k, d in best.items():
    if k[2]: print(*k, " ".join(f"{f}={t:.1f}({s})" for f, (t, s) in sorted(d.items())))
EOF

TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.gch ITERS=30 WARMUP=5 \
  TIME_LIMIT=$((520 - (SECONDS-T0))) MIXGEMM_GIT_COMMIT=${COMMIT:-unknown} timeout $((560 - (SECONDS-T0))) \
  bash scripts/run_bench_h200.sh "$OUT/sweep" > "$OUT/sweep.log" 2>&1
echo "sweep rc=$? at $((SECONDS-T0)) s"; tail -25 "$OUT/sweep/bench.txt"
