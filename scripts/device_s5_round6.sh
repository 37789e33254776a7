#!/usr/bin/env bash
# Session 5, device call 6: (1) the Llama-3-8B decode with --mode compile (the step compiled
# by inductor, captured in the harness's CUDA graph), fp16 / w4a16 / w4a8-s8, batch 1 and 8,
# with the per-category profile of a compiled step; (2) every smallm schedule on the
# Llama-3-8B layers at M = 1 and 8 (f16 x u4b8 g128) against the heuristic's pick.
# Results in $OUT; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
( cmake -S . -B build-s5 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON -DMIXGEMM_BUILD_TESTS=OFF \
    -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 && cmake --build build-s5 -j 16 ) > "$OUT/build.log" 2>&1
echo "build rc=$? $((SECONDS-T0)) s"
timeout 60 ./build-s5/tools/mixgemm-bench --shapes llama3-8b --m 1,8 --types f16.u4b8.g128 --all-schedules \
  --baselines cublas_fp16 --iters 30 --warmup 5 --csv "$OUT/smallm-all.csv" --summary-m none --quiet > "$OUT/smallm-all.txt" 2>&1
echo "bench rc=$? at $((SECONDS-T0)) s"
export PYTHONPATH=$PWD/build-s5/python PYTHONUNBUFFERED=1
timeout 420 python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 --batches 1,8 --mode compile \
  --variants fp16,w4a16,w4a8-s8 --out "$OUT/e2e-compile.csv" --profile-out "$OUT/e2e-compile-profile.csv" \
  > "$OUT/e2e-compile.log" 2>&1
echo "e2e compile rc=$? at $((SECONDS-T0)) s"
grep -E "^\[e2e\].*(batch|us \()|Error" "$OUT/e2e-compile.log" | head -20
python3 - "$OUT/smallm-all.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["kernel"] == "mixgemm" and r["status"] == "ok"]
by = {}
for r in rows:
    by.setdefault((r["shape"], r["M"]), []).append(r)
for k, rs in sorted(by.items()):
    best = min(rs, key=lambda r: float(r["us_median"]))
    pick = [r for r in rs if "heuristic" in r.get("note", "") or r.get("schedule", "").endswith("*")]
    print(k, "best", best["schedule"], best["us_median"], "| all:", " ".join(f"{r['schedule'][7:]}={float(r['us_median']):.1f}" for r in sorted(rs, key=lambda r: float(r['us_median']))[:6]))
PY
echo "total $((SECONDS-T0)) s"
