#!/usr/bin/env bash
# Session 7, last device call: main with 8-row smallm chunks (TM 8/16) and the heuristic's token
# term. (1) build (python on, sm90 f16.u4 + s8.u4 instances), (2) the smallm and GemmApi GPU
# suites, (3) bench: seed + Llama-2-70B + Llama-3-8B layers, M = 1..16, W4A16 f16 and W4A8
# s8/e4m3 g128, every baseline, verified, (4) the compiled e2e decode (fp16 / w4a16 / w4a8-s8,
# batch 1, with the per-category profile; batch 8 does not fit the call). $OUT: s7final-a.tar.gz (1-3), s7final-b.tar.gz (4).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s7final; rm -rf "$R"; mkdir -p "$R"
cp .s7/commit.txt "$R/commit.txt"  # the host's commit: the device copy's git metadata can be stale
( cmake -S . -B build-s7 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON \
    -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 && cmake --build build-s7 -j 16 ) > "$R/build.log" 2>&1
echo "build rc=$? at $((SECONDS-T0)) s"
timeout 150 ./build-s7/tests/mixgemm_gpu_tests --gtest_filter='Smallm.*:GemmApi.*:-SmallmTiming.*' > "$R/gpu-tests.log" 2>&1
echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/gpu-tests.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
timeout 150 ./build-s7/tools/mixgemm-bench --shapes seed,llama2-70b,llama3-8b --m 1,2,4,8,16 \
  --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --iters 30 --warmup 5 --verify \
  --csv "$R/bench.csv" --json "$R/bench.json" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/bench.txt" 2>&1
echo "bench rc=$? at $((SECONDS-T0)) s"
tar czf "$OUT/s7final-a.tar.gz" -C /tmp s7final
python3 - "$R/bench.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["kernel"] == "mixgemm" and r["M"] in ("1", "16"):
        print(f"{r['shape']:20s} {r['type_spec']:16s} M={r['M']:>2s} {float(r['us_median']):7.2f} us {r['pct_floor']:>6s}% floor x{r['x_cublas_fp16']} {r['verify'][:4]} {r['schedule']}")
PY
LEFT=$((570 - (SECONDS - T0))); [ $LEFT -gt 270 ] && LEFT=270
PYTHONPATH=$PWD/build-s7/python PYTHONUNBUFFERED=1 timeout $LEFT python3 examples/llama_decode.py --models llama3-8b \
  --new-tokens 32 --batches 1 --mode compile --variants fp16,w4a16,w4a8-s8 --out "$R/e2e-compile.csv" \
  --profile-out "$R/e2e-compile-profile.csv" > "$R/e2e-compile.log" 2>&1
echo "e2e rc=$? at $((SECONDS-T0)) s"
grep -E "^\[e2e\].*batch" "$R/e2e-compile.log" | tr -s ' '
tar czf "$OUT/s7final-b.tar.gz" -C /tmp s7final/e2e-compile.csv s7final/e2e-compile-profile.csv s7final/e2e-compile.log
echo "total $((SECONDS-T0)) s"
