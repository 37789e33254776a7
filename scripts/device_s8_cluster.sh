#!/usr/bin/env bash
# Session 8, device call 2: cluster split-K for smallm TM 8/16 (the reduction through DSMEM).
# One tree, three builds: cl16 (the default: up to 16 CTAs per cluster), cl8
# (-DMIXGEMM_SMALLM_CLUSTER_MAX=8, portable clusters), cl0 (=0: off, the kernel of main).
# (1) cl16: smallm + GemmApi GPU suites, memcheck and racecheck of the sanitizer suite;
# (2) bench cl0 / cl16 / cl8 / cl0 (seed + Llama-2-70B + Llama-3-8B, M = 1/8/16, f16/s8/e4m3
#     x u4b8 g128, heuristic picks, verified); (3) GPU timing report of every schedule, 12 shapes
#     x M = 1..64, for cl0, cl8 and cl16 (the heuristic's table); (4) the per-CTA trace of cl16
#     at M = 1 on 4 shapes. Everything in $OUT/s8cl.tar.gz; geomeans printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s8cl; rm -rf "$R"; mkdir -p "$R"
cp .s8/commit.txt "$R/commit.txt"
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
b() { local d=$1 l=$2; shift 2; ( cmake -S . -B "$d" "${T[@]}" "$@" && cmake --build "$d" -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > "$l" 2>&1 || echo "BUILD $l FAILED"; }
b build-cl16 "$R/build-cl16.log" &
b build-cl8 "$R/build-cl8.log" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_CLUSTER_MAX=8 &
b build-cl0 "$R/build-cl0.log" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_CLUSTER_MAX=0 &
b build-cl16tr "$R/build-cl16tr.log" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE &
wait
echo "builds done at $((SECONDS-T0)) s"
grep -h "spill" "$R"/build-*.log | grep -v " 0 bytes spill" | sort | uniq -c | head -5
timeout 150 build-cl16/tests/mixgemm_gpu_tests --gtest_filter='Smallm.*:GemmApi.*:-SmallmTiming.*' > "$R/tests-cl16.log" 2>&1
echo "tests cl16 rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-cl16.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "Failure|bad elements|differs" "$R/tests-cl16.log" | head -5
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool build-cl16/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/cl16-$tool.log" 2>&1
  echo "cl16 $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/cl16-$tool.log" | tail -1)"
done
bench() {  # $1 build, $2 stem
  timeout 120 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 \
    --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --baselines cublas_fp16 --iters 30 --warmup 5 --verify \
    --csv "$R/$2.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench build-cl0 cl0; bench build-cl16 cl16; bench build-cl8 cl8; bench build-cl0 cl0b
for v in cl0 cl8 cl16; do
  MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,1,2,3,4,5,6,7,8,9,10,11 MIXGEMM_SMALLM_TIMING_GS=128 \
    timeout 60 build-$v/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > "$R/timing-$v.log" 2>&1
  echo "timing $v rc=$? at $((SECONDS-T0)) s"
done
MIXGEMM_SMALLM_TRACE_FILE=$R/trace-cl16.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,3,5,7 \
  MIXGEMM_SMALLM_TIMING_MS=1 MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=t8_ \
  timeout 100 build-cl16tr/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > "$R/timing-cl16-tr.log" 2>&1
echo "trace rc=$? at $((SECONDS-T0)) s"
gzip -f "$R/trace-cl16.txt"
tar czf "$OUT/s8cl.tar.gz" -C /tmp s8cl
python3 - "$R" <<'PY'
import csv, sys, os, math
R = sys.argv[1]
def load(s):
    p = os.path.join(R, s + ".csv")
    return {(r["shape"], r["type_spec"], r["M"]): float(r["us_median"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"} if os.path.exists(p) else {}
b1, b2, c16, c8 = load("cl0"), load("cl0b"), load("cl16"), load("cl8")
keys = [k for k in b1 if k in b2 and k in c16 and k in c8]
for t in sorted({k[1] for k in keys}):
    for nm, c in (("cl16", c16), ("cl8", c8)):
        l = [math.log(2 * c[k] / (b1[k] + b2[k])) for k in keys if k[1] == t]
        print(f"{nm}/cl0 geomean {t}: {math.exp(sum(l) / len(l)):.4f} over {len(l)}")
for k in sorted(keys):
    if k[1].startswith("f16") or k[2] == "1":
        print(f"{k[0]:20s} {k[1]:16s} M={k[2]:>2s} cl0 {(b1[k] + b2[k]) / 2:7.2f} cl16 {c16[k]:7.2f} cl8 {c8[k]:7.2f}")
PY
python3 scripts/smallm_trace_summary.py "$R/trace-cl16.txt.gz" | head -12
echo "total $((SECONDS-T0)) s"
