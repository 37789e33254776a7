#!/usr/bin/env bash
# Session 7, device call 2. (1) The merged tree (smem-staged final reduction + parallel ring
# fill) against the tree before the merge (7bdfff7 = this tree with .s7/merge.patch reversed):
# smallm/GemmApi GPU tests, memcheck + racecheck, bench base / merged / merged / base.
# (2) Two experiment builds of the merged tree: -DMIXGEMM_SMALLM_NBW=4 (4 n-blocks per warp)
# and -DMIXGEMM_SMALLM_CK=8 (8 rows per chunk): their smallm tests and the timing report
# (every TM 8 schedule at M = 1, every TM 16 schedule at M = 16, shapes 0..6) beside the
# merged tree's. Everything in $OUT/s7r2.tar.gz; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s7r2; rm -rf "$R"; mkdir -p "$R"
cp .s7/commit.txt "$R/commit.txt"
rm -rf /tmp/base && mkdir -p /tmp/base && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/base &&
  (cd /tmp/base && patch -R -p1 < .s7/merge.patch) > "$R/patch-base.log" 2>&1 || echo "PATCH base FAILED"
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
b() { local s=$1 d=$2 l=$3; shift 3; ( cmake -S "$s" -B "$d" "${T[@]}" "$@" && cmake --build "$d" -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > "$l" 2>&1 || echo "BUILD $l FAILED"; }
b . build-r2 "$R/build-merged.log" &
b /tmp/base /tmp/base/build "$R/build-base.log" &
b . build-r2-nbw4 "$R/build-nbw4.log" "-DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_NBW=4" "-DCMAKE_CXX_FLAGS=-DMIXGEMM_SMALLM_NBW=4" &
b . build-r2-ck8 "$R/build-ck8.log" "-DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_CK=8" "-DCMAKE_CXX_FLAGS=-DMIXGEMM_SMALLM_CK=8" &
wait
echo "builds done at $((SECONDS-T0)) s"
declare -A BD=([merged]=build-r2 [nbw4]=build-r2-nbw4 [ck8]=build-r2-ck8 [base]=/tmp/base/build)
for t in merged nbw4 ck8; do
  timeout 150 ${BD[$t]}/tests/mixgemm_gpu_tests --gtest_filter='Smallm.*:GemmApi.*:-SmallmTiming.*' > "$R/tests-$t.log" 2>&1
  echo "tests $t rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-$t.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
done
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool build-r2/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/merged-$tool.log" 2>&1
  echo "merged $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/merged-$tool.log" | tail -1)"
done
bench() {  # $1 build, $2 stem
  timeout 90 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 --types f16.u4b8.g128 \
    --baselines cublas_fp16 --iters 30 --warmup 5 --verify --csv "$R/$2.csv" --git-commit "$(cat "$R/commit.txt")" \
    --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench /tmp/base/build base; bench build-r2 merged; bench build-r2 merged2; bench /tmp/base/build base2
for t in merged nbw4 ck8; do
  for mc in "1 t8_" "16 t16_"; do set -- $mc
    MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,1,2,3,4,5,6 MIXGEMM_SMALLM_TIMING_MS=$1 \
      MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=$2 \
      timeout 120 ${BD[$t]}/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' >> "$R/timing-$t.log" 2>&1
  done
  echo "timing $t at $((SECONDS-T0)) s"
done
tar czf "$OUT/s7r2.tar.gz" -C /tmp s7r2
python3 - "$R" <<'PY'
import csv, sys, os, math, re
R = sys.argv[1]
runs = {}
for s in ("base", "merged", "merged2", "base2"):
    p = os.path.join(R, s + ".csv")
    runs[s] = {(r["shape"], r["M"]): float(r["us_median"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"} if os.path.exists(p) else {}
l = [math.log((runs["merged"][k] + runs["merged2"][k]) / (runs["base"][k] + runs["base2"][k])) for k in runs["base"] if all(k in runs[s] for s in runs)]
if l: print("merged vs base geomean", round(math.exp(sum(l) / len(l)), 4), "over", len(l))
for k in sorted(runs["base"]):
    print(f"{k[0]:20s} {k[1]:>2s} " + " ".join(f"{runs[s].get(k, float('nan')):8.2f}" for s in runs))
T = {}
for t in ("merged", "nbw4", "ck8"):
    p = os.path.join(R, f"timing-{t}.log")
    if not os.path.exists(p): continue
    for m in re.finditer(r"SMALLM_TIME N=(\d+) K=(\d+) g=\d+ M=(\d+) cfg=(\S+) median_us=([\d.]+)", open(p).read()):
        T.setdefault((m[1] + "x" + m[2], int(m[3]), m[4]), {})[t] = float(m[5])
best = {}
for (sh, M, cfg), v in T.items():
    if cfg.endswith("_p0"):
        for t, us in v.items():
            b = best.setdefault((sh, M, t), (1e9, ""))
            if us < b[0]: best[(sh, M, t)] = (us, cfg)
print("best p0 schedule per tree:  shape M | merged | nbw4 | ck8")
for sh, M in sorted({(k[0], k[1]) for k in best}):
    print(sh, M, " | ".join(f"{best.get((sh, M, t), (float('nan'), ''))[0]:.2f} {best.get((sh, M, t), (0, ''))[1]}" for t in ("merged", "nbw4", "ck8")))
PY
echo "total $((SECONDS-T0)) s"
