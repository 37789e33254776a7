#!/usr/bin/env bash
# One device call that decides a smallm change: this tree ("base") against this tree with a
# patch applied ("cand"), in one run.
#   usage (device): bash scripts/device_smallm_ab.sh .sN/cand.patch   (carry the .sN folder)
#   make the patch: git diff main...wip/<branch> > .sN/cand.patch; git rev-parse HEAD > .sN/commit.txt
# (1) builds base, cand and cand with -DMIXGEMM_SMALLM_TRACE (sm90: f16.u4 128x128 only);
# (2) cand: smallm + GemmApi GPU suites, memcheck and racecheck of the sanitizer suite;
# (3) bench base / cand / cand / base: seed + Llama-2-70B + Llama-3-8B, M = 1/8/16, f16, s8
#     and e4m3 x u4b8 g128 (or AB_TYPES = a --types list), heuristic picks, verified; AB_BENCH_EXTRA
#     adds bench flags (e.g. "--graph-batch 32": per-launch times inside CUDA graphs, as an engine runs);
# (4) cand's per-CTA timeline and per-warp cycle accounts at M = 1 (seed, 57344 x 8192,
#     4096 x 4096, 28672 x 4096, or AB_TRACE_SHAPES = indices of the timing report's shapes;
#     every TM 8 schedule). Everything in $OUT/ab.tar.gz; the
#     geomeans and the cycle accounts are printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
PATCH=${1:?usage: device_smallm_ab.sh PATCH}
source scripts/ab_setup.sh
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
b() { local s=$1 d=$2 l=$3; shift 3; ( cmake -S "$s" -B "$d" "${T[@]}" "$@" && cmake --build "$d" -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > "$l" 2>&1 || echo "BUILD $l FAILED"; }
b . build-ab-base "$R/build-base.log" &
b /tmp/cand /tmp/cand/build "$R/build-cand.log" &
b /tmp/cand /tmp/cand/build-tr "$R/build-cand-tr.log" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE &
wait
echo "builds done at $((SECONDS-T0)) s"
grep -h "spill" "$R"/build-*.log | grep -v " 0 bytes spill" | sort | uniq -c | head -5
ab_check_cand 'Smallm.*:GemmApi.*:-SmallmTiming.*' 150
bench() {  # $1 build, $2 stem
  timeout 120 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 \
    --types ${AB_TYPES:-f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128} --baselines cublas_fp16 --iters 30 --warmup 5 --settle-ms ${AB_SETTLE_MS:-0} --verify ${AB_BENCH_EXTRA:-} \
    --csv "$R/$2.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench build-ab-base base; bench /tmp/cand/build cand; bench /tmp/cand/build cand2; bench build-ab-base base2
MIXGEMM_SMALLM_TRACE_FILE=$R/trace-cand.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=${AB_TRACE_SHAPES:-0,3,5,7} \
  MIXGEMM_SMALLM_TIMING_MS=1 MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=t8_ \
  timeout 100 /tmp/cand/build-tr/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > "$R/timing-cand-tr.log" 2>&1
echo "trace rc=$? at $((SECONDS-T0)) s"
gzip -f "$R/trace-cand.txt"
tar czf "$OUT/ab.tar.gz" -C /tmp ab
python3 - "$R" <<'PY'
import csv, sys, os, math
R = sys.argv[1]
def load(s):
    p = os.path.join(R, s + ".csv")
    return {(r["shape"], r["type_spec"], r["M"]): float(r["us_median"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"} if os.path.exists(p) else {}
b1, b2, c1, c2 = load("base"), load("base2"), load("cand"), load("cand2")
keys = [k for k in b1 if k in b2 and k in c1 and k in c2]
for t in sorted({k[1] for k in keys}):
    l = [math.log((c1[k] + c2[k]) / (b1[k] + b2[k])) for k in keys if k[1] == t]
    print(f"cand/base geomean {t}: {math.exp(sum(l) / len(l)):.4f} over {len(l)}")
for k in sorted(keys):
    if k[2] == "1": print(f"{k[0]:20s} {k[1]:16s} M=1 base {(b1[k] + b2[k]) / 2:7.2f} cand {(c1[k] + c2[k]) / 2:7.2f}")
PY
python3 scripts/smallm_trace_summary.py "$R/trace-cand.txt.gz" | grep -E "t8_w4_o4_p0|t8_w8_o1_p0 |chunk loop|final reducers"
echo "total $((SECONDS-T0)) s"
