#!/usr/bin/env bash
# Session 24 call 1: the deciding call of branch wip/pdl (programmatic dependent launch, opt-in).
#   .s24/pdl.patch        = git diff main...wip/pdl
#   .s24/pdl-nowait.patch = the same with both griddepcontrol_wait() calls (smallm, sm90 producer)
#                           removed: the negative control, GemmPdl must FAIL with it.
# Builds base (bench), pdl (tests, bench, python) and nowait (tests) in parallel, sm90 f16.u4 + s8.u4.
# In order of what decides, each step bounded by the time left (deadline 575 s):
#  1 pdl GemmApi* (incl. GemmApi/GemmPdl.*), 2 nowait GemmApi/GemmPdl.* (expected to fail),
#  3 compiled Llama-3-8B decode batch 1: fp16, w4a16, w4a16-pdl, w4a8-s8, w4a8-s8-pdl (pdl build),
#  4 pdl suites Smallm* / Sm90* / *Sanitize*, 5 memcheck + racecheck (*Sanitize*, GemmPdl),
#  6 bench A/B of the plain path: base pdl pdl base, f16 / s8 g128, M = 1 / 16 / 256, seed + 70B + 8B,
#  7 --stream-read (launch_only rows) on base, M = 1, seed + 70B + 8B, cuBLAS fp16 beside.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS; DEADLINE=575
left() { echo $(( DEADLINE - (SECONDS - T0) )); }
R=/tmp/s24c1; rm -rf "$R"; mkdir -p "$R"
cp .s24/commit.txt .s24/*.patch .s24/call1.sh "$R/"
C=$(cat .s24/commit.txt)
for v in base pdl nowait; do
  d=/tmp/t-$v; rm -rf "$d"; mkdir -p "$d"
  tar cf - --exclude='./build*' --exclude='./.git' --exclude='./.s2*' . | tar xf - -C "$d"
done
(cd /tmp/t-pdl && patch -p1 < "$ROOT/.s24/pdl.patch") > "$R/patch-pdl.log" 2>&1 || echo "PATCH pdl FAILED"
(cd /tmp/t-nowait && patch -p1 < "$ROOT/.s24/pdl-nowait.patch") > "$R/patch-nowait.log" 2>&1 || echo "PATCH nowait FAILED"
CM=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4)
build() {  # $1 name, $2.. targets
  local v=$1; shift
  ( cmake -S /tmp/t-$v -B /tmp/t-$v/build "${CM[@]}" $EXTRA && cmake --build /tmp/t-$v/build -j 16 --target "$@" ) \
    > "$R/build-$v.log" 2>&1 || echo "BUILD $v FAILED"
}
EXTRA="-DMIXGEMM_BUILD_TESTS=OFF" build base mixgemm-bench &
EXTRA="-DMIXGEMM_BUILD_PYTHON=ON" build pdl mixgemm_gpu_tests mixgemm-bench _C mixgemm_python_sources &
EXTRA="" build nowait mixgemm_gpu_tests &
wait
echo "builds done at $((SECONDS - T0)) s; spill lines: $(grep -h 'bytes spill' "$R"/build-*.log | grep -vc ' 0 bytes spill')"
TP=/tmp/t-pdl/build/tests/mixgemm_gpu_tests
timeout 120 $TP --gtest_filter='GemmApi*' > "$R/tests-pdl-gemmapi.log" 2>&1
echo "1 pdl GemmApi* rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-pdl-gemmapi.log" | tr '\n' ' ') at $((SECONDS - T0)) s"
grep -E "^\[ +(OK|FAILED) +\] GemmApi/GemmPdl|\[ info \]" "$R/tests-pdl-gemmapi.log" | head -6
timeout 60 /tmp/t-nowait/build/tests/mixgemm_gpu_tests --gtest_filter='GemmApi/GemmPdl*' > "$R/tests-nowait-pdl.log" 2>&1
echo "2 nowait GemmPdl (must fail) rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-nowait-pdl.log" | tr '\n' ' ')"
grep -E "Failure|run [0-9]|replay" "$R/tests-nowait-pdl.log" | head -4
L=$(left); [ $L -gt 240 ] && L=240
if [ $L -gt 90 ]; then
  (cd /tmp/t-pdl && PYTHONPATH=/tmp/t-pdl/build/python PYTHONUNBUFFERED=1 timeout $L python3 examples/llama_decode.py \
    --models llama3-8b --new-tokens 32 --batches 1 --mode compile \
    --variants fp16,w4a16,w4a16-pdl,w4a8-s8,w4a8-s8-pdl --out "$R/e2e-compile.csv" \
    --profile-out "$R/e2e-compile-profile.csv" > "$R/e2e-compile.log" 2>&1)
  echo "3 e2e rc=$? at $((SECONDS - T0)) s"
  grep -E "^\[e2e\].*batch +1:" "$R/e2e-compile.log" | tr -s ' '
fi
L=$(left); [ $L -gt 150 ] && L=150
if [ $L -gt 30 ]; then
  timeout $L $TP --gtest_filter='Smallm*:Sm90*:GemmSanitize*:-SmallmTiming*:Sm90Timing*' > "$R/tests-pdl-suites.log" 2>&1
  echo "4 pdl suites rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-pdl-suites.log" | tr '\n' ' ') at $((SECONDS - T0)) s"
fi
for tool in memcheck racecheck; do
  L=$(left); [ $L -gt 60 ] && L=60
  [ $L -gt 20 ] || continue
  timeout $L compute-sanitizer --tool $tool $TP --gtest_filter='*Sanitize*:GemmApi/GemmPdl.*' > "$R/pdl-$tool.log" 2>&1
  echo "5 pdl $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/pdl-$tool.log" | tail -1) at $((SECONDS - T0)) s"
done
bench() {  # $1 variant, $2 label
  local L=$(left); [ $L -gt 45 ] && L=45
  [ $L -gt 15 ] || return
  timeout $L /tmp/t-$1/build/tools/mixgemm-bench --shapes seed,llama2-70b,llama3-8b --m 1,16,256 \
    --types f16.u4b8.g128,s8.u4b8.g128 --no-baselines --iters 20 --warmup 3 --settle-ms 100 \
    --csv "$R/ab-$1-$2.csv" --git-commit "$C" --summary-m none --quiet > "$R/ab-$1-$2.txt" 2>&1
  echo "6 bench $1-$2 rc=$? at $((SECONDS - T0)) s"
}
bench base 1; bench pdl 1; bench pdl 2; bench base 2
L=$(left)
if [ $L -gt 20 ]; then
  timeout $L /tmp/t-base/build/tools/mixgemm-bench --shapes seed,llama2-70b,llama3-8b --m 1 --types f16.u4b8.g128 \
    --stream-read --baselines cublas_fp16 --iters 30 --warmup 5 --settle-ms 100 --csv "$R/stream-read.csv" \
    --git-commit "$C" --summary-m none --quiet > "$R/stream-read.txt" 2>&1
  echo "7 stream-read rc=$? at $((SECONDS - T0)) s"
fi
gzip -q "$R"/build-*.log
tar czf "$OUT/s24c1.tar.gz" -C /tmp s24c1
python3 - "$R" <<'PY'
import csv, sys, os, math
R = sys.argv[1]
def load(s):
    p = os.path.join(R, f"ab-{s}.csv")
    if not os.path.exists(p): return {}
    return {(r["shape"], r["type_spec"], int(r["M"])): float(r["us_median"])
            for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm" and r["us_median"]}
b1, b2, c1, c2 = (load(s) for s in ("base-1", "base-2", "pdl-1", "pdl-2"))
keys = [k for k in b1 if k in b2 and k in c1 and k in c2]
for t in sorted({k[1] for k in keys}):
    for m in sorted({k[2] for k in keys}):
        l = [math.log((c1[k] + c2[k]) / (b1[k] + b2[k])) for k in keys if k[1] == t and k[2] == m]
        print(f"plain path pdl/base {t:16s} M={m:4d}: {math.exp(sum(l)/len(l)):.4f} over {len(l)}")
p = os.path.join(R, "stream-read.csv")
if os.path.exists(p):
    for r in csv.DictReader(open(p)):
        if r["kernel"] in ("stream_read", "launch_only", "mixgemm"):
            print(f"{r['shape']:20s} {r['kernel']:12s} {float(r['us_median']):8.2f} us  {r.get('pct_floor','')}% floor  {r.get('note','')[:80]}")
PY
echo "total $((SECONDS - T0)) s"
