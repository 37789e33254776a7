#!/usr/bin/env bash
# Session 25, call 1: the offset-folded smallm path (this tree) against the rounded-weight
# path (-DMIXGEMM_SMALLM_FOLD=0, the same tree): GPU suites + memcheck on the fold build,
# bench base / fold / fold / base (f16 and bf16 x u4b8 g128, M = 1/8/16, verified).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; T0=$SECONDS; R=$OUT/ab; mkdir -p "$R"
cp .s25/commit.txt "$R/commit.txt"
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
( cmake -S . -B build-fold "${T[@]}" && cmake --build build-fold -j 12 --target mixgemm_gpu_tests mixgemm-bench ) > "$R/build-fold.log" 2>&1 || echo "BUILD fold FAILED" &
( cmake -S . -B build-base "${T[@]}" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_FOLD=0 && cmake --build build-base -j 8 --target mixgemm-bench ) > "$R/build-base.log" 2>&1 || echo "BUILD base FAILED" &
wait
echo "builds done at $((SECONDS-T0)) s"
grep -h "spill" "$R"/build-*.log | sort | uniq -c | head -8
bench() {  # $1 build, $2 stem
  timeout 100 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 \
    --types f16.u4b8.g128,bf16.u4b8.g128 --baselines cublas_fp16 --iters 30 --warmup 5 --verify \
    --csv "$R/$2.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s: $(grep -h '^verify' "$R/$2.txt" | tr '\n' ' ')"
}
bench build-base base; bench build-fold fold; bench build-fold fold2; bench build-base base2
timeout 220 build-fold/tests/mixgemm_gpu_tests --gtest_filter='Smallm.*:GemmApi.*:-SmallmTiming.*' > "$R/tests-fold.log" 2>&1
echo "tests fold rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-fold.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "^\[  FAILED  \]" "$R/tests-fold.log" | head -20
grep -m5 -A3 "Failure" "$R/tests-fold.log" | cut -c1-400 | head -30
if [ $((SECONDS-T0)) -lt 470 ]; then
  timeout 90 compute-sanitizer --tool memcheck build-fold/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/fold-memcheck.log" 2>&1
  echo "memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$R/fold-memcheck.log" | tail -1)"
fi
python3 - "$R" <<'PY'
import csv, sys, os, math
R = sys.argv[1]
def load(s):
    p = os.path.join(R, s + ".csv")
    if not os.path.exists(p): return {}
    return {(r["shape"], r["type_spec"], r["M"]): (float(r["us_median"]), r.get("pct_floor",""), r.get("schedule","")) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm" and r["us_median"]}
b1, b2, c1, c2 = load("base"), load("base2"), load("fold"), load("fold2")
keys = [k for k in b1 if k in b2 and k in c1 and k in c2]
for t in sorted({k[1] for k in keys}):
  for M in ("1", "8", "16"):
    l = [math.log((c1[k][0] + c2[k][0]) / (b1[k][0] + b2[k][0])) for k in keys if k[1] == t and k[2] == M]
    if l: print(f"fold/base geomean {t} M={M}: {math.exp(sum(l) / len(l)):.4f} over {len(l)}")
for k in sorted(keys):
    if k[2] == "1" and k[1].startswith("f16"): print(f"{k[0]:22s} {k[1]:15s} M=1 base {(b1[k][0] + b2[k][0]) / 2:7.2f} fold {(c1[k][0] + c2[k][0]) / 2:7.2f} pct {b1[k][1]} -> {c1[k][1]}")
PY
echo "total $((SECONDS-T0)) s"
