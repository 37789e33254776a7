#!/usr/bin/env bash
# One device call that decides an sm90 change: this tree ("base") against this tree with a
# patch applied ("cand"), in one run.
#   usage (device): bash scripts/device_sm90_ab.sh .sN/cand.patch   (carry the .sN folder)
#   make the patch: git diff HEAD > .sN/cand.patch; git stash (the tree sent is the base);
#   git rev-parse HEAD > .sN/commit.txt
# (1) builds base and cand (sm90 f16.u4 and s8.u4, or $AB_SM90_TYPES; every schedule, or $AB_SM90_SCHEDULES;
#     smallm as usual);
# (2) cand: the Sm90 and Gemm GPU suites (or the gtest filter $AB_TEST_FILTER), memcheck and racecheck of the sanitizer suite, and
#     the register / spill report of every sm90 kernel (ptxas);
# (3) bench base / cand / cand / base: seed + Llama-2-70B (or $AB_SHAPES), M = 64, 128, 256, 1024, 8192, f16 and s8 x u4b8
#     g128 and f16 per-channel (or $AB_TYPES; M: $AB_MS), heuristic picks, cuBLAS fp16 (or
#     $AB_BASELINES; the table shows x_cublas_fp8 when cublaslt_fp8 is among them) (the first base and cand runs
#     verified against the CPU reference; no --settle-ms unless $AB_SETTLE_MS: the pairs are symmetric, base
#     and cand in the same state, but rows are not in the sustained power state). Everything in $OUT/ab.tar.gz; the cand/base
#     geomeans per type and M, and the per-point table, are printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
PATCH=${1:?usage: device_sm90_ab.sh PATCH}
source scripts/ab_setup.sh
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=${AB_SM90_TYPES:-f16.u4,s8.u4}
   -DMIXGEMM_SM90_SCHEDULES=${AB_SM90_SCHEDULES:-} -DCMAKE_CUDA_FLAGS=-Xptxas=-v)
b() { local s=$1 d=$2 l=$3; ( cmake -S "$s" -B "$d" "${T[@]}" && cmake --build "$d" -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > "$l" 2>&1 || echo "BUILD $l FAILED"; }
b . build-ab-base "$R/build-base.log" &
b /tmp/cand /tmp/cand/build "$R/build-cand.log" &
wait
echo "builds done at $((SECONDS-T0)) s"
for l in base cand; do
  echo "$l sm90 kernels: $(grep -A2 'Function properties for .*sm90_kernel' "$R/build-$l.log" | grep -c 'Used') compiled, spills: $(grep -A2 'Function properties for .*sm90_kernel' "$R/build-$l.log" | grep -E 'spill stores' | grep -vc ' 0 bytes spill stores')"
done
ab_check_cand "${AB_TEST_FILTER:-Sm90*:Gemm*:-Sm90Timing.*:GemmSanitize*}" 200
bench() {  # $1 build, $2 stem, $3 extra flags (optional)
  timeout 150 "$1/tools/mixgemm-bench" --shapes ${AB_SHAPES:-seed,llama2-70b} --m ${AB_MS:-64,128,256,1024,8192} \
    --types ${AB_TYPES:-f16.u4b8.g128,s8.u4b8.g128,f16.u4b8.gch} --baselines ${AB_BASELINES:-cublas_fp16} --lt-algos 4 --iters 20 --warmup 3 --settle-ms ${AB_SETTLE_MS:-0} ${3:-} \
    --csv "$R/$2.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench build-ab-base base --verify; bench /tmp/cand/build cand --verify; bench /tmp/cand/build cand2; bench build-ab-base base2
tar czf "$OUT/ab.tar.gz" -C /tmp ab
python3 - "$R" <<'PY'
import csv, sys, os, math
R = sys.argv[1]
def load(s):
    p = os.path.join(R, s + ".csv")
    if not os.path.exists(p): return {}
    col = "x_cublas_fp8" if "cublaslt_fp8" in os.environ.get("AB_BASELINES", "") else "x_cublas_fp16"
    return {(r["shape"], r["type_spec"], int(r["M"])): (float(r["us_median"]), r["schedule"], r[col])
            for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm" and r["us_median"]}
b1, b2, c1, c2 = load("base"), load("base2"), load("cand"), load("cand2")
keys = [k for k in b1 if k in b2 and k in c1 and k in c2]
r = {k: (c1[k][0] + c2[k][0]) / (b1[k][0] + b2[k][0]) for k in keys}
for t in sorted({k[1] for k in keys}):
    for m in sorted({k[2] for k in keys}):
        l = [math.log(r[k]) for k in keys if k[1] == t and k[2] == m]
        if l: print(f"cand/base geomean {t:16s} M={m:5d}: {math.exp(sum(l) / len(l)):.4f} over {len(l)}")
for k in sorted(keys):
    print(f"{k[0]:20s} {k[1]:16s} M={k[2]:5d} {c1[k][1]:34s} base {(b1[k][0] + b2[k][0]) / 2:9.1f} cand {(c1[k][0] + c2[k][0]) / 2:9.1f} ({r[k]:.3f}) x_base {b1[k][2]} -> {c1[k][2]}")
PY
echo "total $((SECONDS-T0)) s"
