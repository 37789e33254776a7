#!/usr/bin/env bash
# s6 round 2: where the smallm time goes (ablations) + two candidate changes.
#   abl1: no weight traffic (no bulk copies, no row waits): compute + overhead only
#   abl2: no dequantization (raw words as A fragments, no scale lookups): memory + MMA + overhead
#   occ3: TM 8 built for <= 85 registers (3 CTAs x 256 threads), + t8_w8_o3 / t8_w4_o5 / t8_w4_o6
#   pipe: TM 8 row loads one row ahead of the dequantization
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s6r2; rm -rf "$R"; mkdir -p "$R"
git rev-parse HEAD > "$R/commit.txt" 2>/dev/null
for t in abl occ3 pipe; do
  rm -rf /tmp/$t && mkdir -p /tmp/$t && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/$t &&
    (cd /tmp/$t && patch -p1 < .s6/$t.patch) > "$R/patch-$t.log" 2>&1 || echo "PATCH $t FAILED"
done
T=(-DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
b() {  # $1 src, $2 build, $3 log, rest: cmake args
  local s=$1 d=$2 l=$3; shift 3
  ( cmake -S "$s" -B "$d" -G Ninja -DCMAKE_BUILD_TYPE=Release "${T[@]}" "$@" && cmake --build "$d" -j 16 --target mixgemm-bench mixgemm_gpu_tests ) > "$l" 2>&1
}
b . build-s6 "$R/build-main.log" &
b /tmp/abl /tmp/abl/build1 "$R/build-abl1.log" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_ABLATE=1 &
b /tmp/abl /tmp/abl/build2 "$R/build-abl2.log" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_ABLATE=2 &
b /tmp/occ3 /tmp/occ3/build "$R/build-occ3.log" &
b /tmp/pipe /tmp/pipe/build "$R/build-pipe.log" &
wait
echo "builds done at $((SECONDS-T0)) s"
ls build-s6/tools/mixgemm-bench /tmp/abl/build1/tools/mixgemm-bench /tmp/abl/build2/tools/mixgemm-bench /tmp/occ3/build/tools/mixgemm-bench /tmp/pipe/build/tools/mixgemm-bench >/dev/null || echo "A BUILD FAILED"
F='Smallm.W4A16_F16:Smallm.W4A16_BF16:Smallm.W4A8_S8:Smallm.StreamShapes:Smallm.RealShape:Smallm.GraphReplay:GemmApi.*'
for t in occ3 pipe; do
  timeout 150 /tmp/$t/build/tests/mixgemm_gpu_tests --gtest_filter="$F" > "$R/tests-$t.log" 2>&1
  echo "tests $t rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-$t.log" | tr '\n' ' ')"
done
bench() {  # $1 build, $2 stem, $3 verify flag
  timeout 90 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 --types f16.u4b8.g128 \
    --baselines cublas_fp16 --iters 30 --warmup 5 $3 --csv "$R/$2.csv" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench build-s6 main --verify; bench /tmp/abl/build1 abl1 ""; bench /tmp/abl/build2 abl2 ""
bench /tmp/pipe/build pipe --verify; bench /tmp/occ3/build occ3 --verify; bench build-s6 main2 --verify
timing() {  # $1 build, $2 stem
  MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_MS=1,8 MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=t8_ \
    timeout 120 "$1/tests/mixgemm_gpu_tests" --gtest_filter='SmallmTiming.Report' > "$R/timing-$2.log" 2>&1
  echo "timing $2 rc=$? at $((SECONDS-T0)) s"
}
timing build-s6 main; timing /tmp/occ3/build occ3
tar czf "$OUT/s6r2.tar.gz" -C /tmp s6r2
python3 - "$R" <<'PY'
import csv, sys, os, re
R = sys.argv[1]
runs = {}
for s in ("main", "abl1", "abl2", "pipe", "occ3", "main2"):
    p = os.path.join(R, s + ".csv")
    runs[s] = {(r["shape"], r["M"]): (r["us_median"], r["schedule"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"} if os.path.exists(p) else {}
print("shape M " + " ".join(runs))
for k in sorted(runs["main"]):
    print(f"{k[0]:20s} {k[1]:>2s} " + " ".join(f"{runs[s].get(k, ('-',''))[0]:>8s}" for s in runs) + "  occ3:" + runs["occ3"].get(k, ('', '-'))[1])
for s in ("main", "occ3"):
    p = os.path.join(R, f"timing-{s}.log")
    if not os.path.exists(p): continue
    for l in open(p):
        m = re.search(r"N=(\d+) K=(\d+) g=\d+ M=(\d+) cfg=(\S+) median_us=([\d.]+)", l)
        if m: print(s, *m.groups())
PY
echo "total $((SECONDS-T0)) s"
