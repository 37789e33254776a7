#!/usr/bin/env bash
# Session 8, device call 3: cluster split-K with the kAuto rule (<= 8 CTAs per cluster, only
# where >= 70% of the plain split's CTAs stay) against the plain split, one tree, two builds:
# auto (default; python on, sm90 f16.u4) and cl0 (-DMIXGEMM_SMALLM_CLUSTER_MAX=0 = main's kernel).
# (1) auto: smallm + GemmApi GPU suites (each cluster/plain alternative also run), memcheck,
#     racecheck; (2) bench cl0 / auto / auto / cl0 (seed + Llama-2-70B + Llama-3-8B, M = 1/8/16,
#     f16/s8/e4m3 x u4b8 g128, heuristic picks, verified); (3) timing report of auto (12 shapes x
#     M = 1..64, every schedule: the heuristic's table); (4) compiled e2e batch 1 (fp16, w4a16)
#     with auto. $OUT/s8cl2.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s8cl2; rm -rf "$R"; mkdir -p "$R"
cp .s8/commit.txt "$R/commit.txt"
( cmake -S . -B build-auto -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON -DMIXGEMM_SM90_TYPES=f16.u4 \
  && cmake --build build-auto -j 16 ) > "$R/build-auto.log" 2>&1 || echo "BUILD auto FAILED" &
( cmake -S . -B build-cl0 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_CLUSTER_MAX=0 \
  && cmake --build build-cl0 -j 16 --target mixgemm-bench ) > "$R/build-cl0.log" 2>&1 || echo "BUILD cl0 FAILED" &
wait
echo "builds done at $((SECONDS-T0)) s"
grep -h "spill" "$R"/build-*.log | grep -v " 0 bytes spill" | sort | uniq -c | head -5
timeout 170 build-auto/tests/mixgemm_gpu_tests --gtest_filter='Smallm.*:GemmApi.*:-SmallmTiming.*' > "$R/tests-auto.log" 2>&1
echo "tests auto rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-auto.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "Failure|bad elements|differs" "$R/tests-auto.log" | head -5
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool build-auto/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/auto-$tool.log" 2>&1
  echo "auto $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/auto-$tool.log" | tail -1)"
done
bench() {  # $1 build, $2 stem
  timeout 120 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 \
    --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --baselines cublas_fp16 --iters 30 --warmup 5 --verify \
    --csv "$R/$2.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench build-cl0 cl0; bench build-auto auto; bench build-auto autob; bench build-cl0 cl0b
MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,1,2,3,4,5,6,7,8,9,10,11 MIXGEMM_SMALLM_TIMING_GS=128 \
  timeout 60 build-auto/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > "$R/timing-auto.log" 2>&1
echo "timing auto rc=$? at $((SECONDS-T0)) s"
tar czf "$OUT/s8cl2-a.tar.gz" -C /tmp s8cl2
python3 - "$R" <<'PY'
import csv, sys, os, math
R = sys.argv[1]
def load(s):
    p = os.path.join(R, s + ".csv")
    return {(r["shape"], r["type_spec"], r["M"]): (float(r["us_median"]), r["schedule"], r["pct_floor"], r["x_cublas_fp16"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"} if os.path.exists(p) else {}
b1, b2, c1, c2 = load("cl0"), load("cl0b"), load("auto"), load("autob")
keys = [k for k in b1 if k in b2 and k in c1 and k in c2]
for t in sorted({k[1] for k in keys}):
    for sub in ("llama3-8b", ""):
        l = [math.log((c1[k][0] + c2[k][0]) / (b1[k][0] + b2[k][0])) for k in keys if k[1] == t and sub in k[0]]
        print(f"auto/cl0 geomean {t} {sub or 'all'}: {math.exp(sum(l) / len(l)):.4f} over {len(l)}")
for k in sorted(keys):
    if k[1].startswith("f16"):
        print(f"{k[0]:20s} M={k[2]:>2s} cl0 {(b1[k][0] + b2[k][0]) / 2:7.2f} auto {(c1[k][0] + c2[k][0]) / 2:7.2f} {c1[k][1]} {c1[k][2]}% x{c1[k][3]}")
PY
LEFT=$((585 - (SECONDS - T0))); [ $LEFT -gt 220 ] && LEFT=220
if [ $LEFT -gt 100 ]; then
  PYTHONPATH=$PWD/build-auto/python PYTHONUNBUFFERED=1 timeout $LEFT python3 examples/llama_decode.py --models llama3-8b \
    --new-tokens 32 --batches 1 --mode compile --variants fp16,w4a16 --out "$R/e2e-compile.csv" \
    --profile-out "$R/e2e-compile-profile.csv" > "$R/e2e-compile.log" 2>&1
  echo "e2e rc=$? at $((SECONDS-T0)) s"
  grep -E "^\[e2e\].*batch" "$R/e2e-compile.log" | tr -s ' '
  tar czf "$OUT/s8cl2-b.tar.gz" -C /tmp s8cl2/e2e-compile.csv s8cl2/e2e-compile-profile.csv s8cl2/e2e-compile.log
fi
echo "total $((SECONDS-T0)) s"
