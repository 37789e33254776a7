#!/usr/bin/env bash
# Session 25, call 2 (same warm machine, builds of call 1 kept): the bench A/B again, the GPU
# suites and both sanitizers on the fold build, everything in one tarball ($OUT/ab.tar.gz).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; T0=$SECONDS; R=/tmp/s25ab; rm -rf "$R"; mkdir -p "$R"
cp .s25/commit.txt "$R/commit.txt"; cp .s25/ab.sh .s25/ab2.sh "$R/"
ls build-fold/tests/mixgemm_gpu_tests build-fold/tools/mixgemm-bench build-base/tools/mixgemm-bench || echo "BUILDS MISSING"
bench() {  # $1 build, $2 stem
  timeout 100 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 \
    --types f16.u4b8.g128,bf16.u4b8.g128 --baselines cublas_fp16 --iters 30 --warmup 5 --verify \
    --csv "$R/$2.csv" --json "$R/$2.json" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s: $(grep -h '^verify' "$R/$2.txt" | tr '\n' ' ')"
}
bench build-base base; bench build-fold fold; bench build-fold fold2; bench build-base base2
timeout 150 build-fold/tests/mixgemm_gpu_tests --gtest_filter='Smallm.*:GemmApi.*:-SmallmTiming.*' > "$R/tests-fold.log" 2>&1
echo "tests fold rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-fold.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
for tool in memcheck racecheck; do
  timeout 80 compute-sanitizer --tool $tool build-fold/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/fold-$tool.log" 2>&1
  echo "fold $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/fold-$tool.log" | tail -1)"
done
gzip -f "$R"/*.json 2>/dev/null
tar czf "$OUT/ab.tar.gz" -C /tmp s25ab
python3 - "$R" <<'PY'
import csv, sys, os, math
R = sys.argv[1]
def load(s):
    p = os.path.join(R, s + ".csv")
    if not os.path.exists(p): return {}
    return {(r["shape"], r["type_spec"], r["M"]): float(r["us_median"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm" and r["us_median"]}
b1, b2, c1, c2 = load("base"), load("base2"), load("fold"), load("fold2")
keys = [k for k in b1 if k in b2 and k in c1 and k in c2]
for t in sorted({k[1] for k in keys}):
  for M in ("1", "8", "16"):
    l = [math.log((c1[k] + c2[k]) / (b1[k] + b2[k])) for k in keys if k[1] == t and k[2] == M]
    if l: print(f"fold/base geomean {t} M={M}: {math.exp(sum(l) / len(l)):.4f} over {len(l)}")
PY
echo "total $((SECONDS-T0)) s"
