#!/usr/bin/env bash
# The closing device call of a smallm session (session 8's, generalized):
#   usage (device): bash scripts/device_smallm_final.sh .sN   (carry the .sN folder; .sN/commit.txt
#   = the host's HEAD, since the device copy's git metadata can be stale)
# (1) build (python on, sm90 f16.u4
# + s8.u4 instances), (2) the smallm, GemmApi and sanitizer (Gemm, Smallm) GPU suites, memcheck
# and racecheck of the sanitizer suites, (3) the GPU timing report (12 shapes x M = 1..64, every schedule: the CPU
# heuristic test's table), (4) bench: seed + Llama-2-70B + Llama-3-8B layers, M = 1..16, f16 /
# s8 / e4m3 x u4b8 g128, every baseline, verified, (5) compiled e2e decode batch 1 (fp16 / w4a16
# / w4a8-s8). $OUT: final-a.tar.gz (1-4), final-b.tar.gz (5).
set -uo pipefail
cd "$(dirname "$0")/.."
CARRY=${1:?usage: device_smallm_final.sh .sN}
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/final; rm -rf "$R"; mkdir -p "$R"
cp "$CARRY/commit.txt" "$R/commit.txt"  # the host's commit: the device copy's git metadata can be stale
( cmake -S . -B build-final -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON \
    -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 && cmake --build build-final -j 16 ) > "$R/build.log" 2>&1
echo "build rc=$? at $((SECONDS-T0)) s"
grep -h "spill" "$R/build.log" | grep -v " 0 bytes spill" | sort | uniq -c | head -5
timeout 170 ./build-final/tests/mixgemm_gpu_tests --gtest_filter='Smallm.*:SmallmSanitize.*:GemmApi.*:GemmSanitize.*:-SmallmTiming.*' > "$R/gpu-tests.log" 2>&1
echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/gpu-tests.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "Failure|bad elements|differs" "$R/gpu-tests.log" | head -5
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool ./build-final/tests/mixgemm_gpu_tests --gtest_filter='GemmSanitize.*:SmallmSanitize.*' > "$R/$tool.log" 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$tool.log" | tail -1) at $((SECONDS-T0)) s"
done
MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,1,2,3,4,5,6,7,8,9,10,11 MIXGEMM_SMALLM_TIMING_GS=128 \
  timeout 60 ./build-final/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > "$R/timing.log" 2>&1
echo "timing rc=$? at $((SECONDS-T0)) s"
timeout 240 ./build-final/tools/mixgemm-bench --shapes seed,llama2-70b,llama3-8b --m 1,2,4,8,16 \
  --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --iters 30 --warmup 5 --settle-ms ${SETTLE_MS:-300} --verify \
  --csv "$R/bench.csv" --json "$R/bench.json" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/bench.txt" 2>&1
echo "bench rc=$? at $((SECONDS-T0)) s"
tar czf "$OUT/final-a.tar.gz" -C /tmp final
python3 - "$R/bench.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["kernel"] == "mixgemm" and r["M"] in ("1", "16") and r["type_spec"].startswith("f16"):
        print(f"{r['shape']:20s} {r['type_spec']:16s} M={r['M']:>2s} {float(r['us_median']):7.2f} us {r['pct_floor']:>6s}% floor x{r['x_cublas_fp16']} {r['verify'][:4]} {r['schedule']}")
PY
LEFT=$((585 - (SECONDS - T0))); [ $LEFT -gt 270 ] && LEFT=270
if [ $LEFT -gt 120 ]; then
  PYTHONPATH=$PWD/build-final/python PYTHONUNBUFFERED=1 timeout $LEFT python3 examples/llama_decode.py --models llama3-8b \
    --new-tokens 32 --batches 1 --mode compile --variants fp16,w4a16,w4a8-s8 --out "$R/e2e-compile.csv" \
    --profile-out "$R/e2e-compile-profile.csv" > "$R/e2e-compile.log" 2>&1
  echo "e2e rc=$? at $((SECONDS-T0)) s"
  grep -E "^\[e2e\].*batch" "$R/e2e-compile.log" | tr -s ' '
  tar czf "$OUT/final-b.tar.gz" -C /tmp final/e2e-compile.csv final/e2e-compile-profile.csv final/e2e-compile.log
fi
echo "total $((SECONDS-T0)) s"
