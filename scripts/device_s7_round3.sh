#!/usr/bin/env bash
# Session 7, device call 3: 8-row chunks for TM 8/16 (wip/smallm-ck8) against main.
# Trees: "ck8" = this tree (8-row chunks, 2 stages), "ck8s3" = the same built with
# -DMIXGEMM_SMALLM_STAGES_CK8=3, "base" = main (this tree with .s7/ck8.patch reversed).
# (1) ck8: smallm/GemmApi GPU tests, memcheck + racecheck; ck8s3: smallm tests.
# (2) bench base / ck8 / ck8s3 / ck8 / base (heuristic picks, 27 points).
# (3) the smallm timing report of ck8 and ck8s3 over the 12 shapes and M = 1..64: the table of
#     the heuristic's CPU test. Everything in $OUT/s7r3.tar.gz; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s7r3; rm -rf "$R"; mkdir -p "$R"
cp .s7/commit.txt "$R/commit.txt"
rm -rf /tmp/base && mkdir -p /tmp/base && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/base &&
  (cd /tmp/base && patch -R -p1 < .s7/ck8.patch) > "$R/patch-base.log" 2>&1 || echo "PATCH base FAILED"
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
b() { local s=$1 d=$2 l=$3; shift 3; ( cmake -S "$s" -B "$d" "${T[@]}" "$@" && cmake --build "$d" -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > "$l" 2>&1 || echo "BUILD $l FAILED"; }
b . build-r3 "$R/build-ck8.log" &
b . build-r3-s3 "$R/build-ck8s3.log" "-DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_STAGES_CK8=3" "-DCMAKE_CXX_FLAGS=-DMIXGEMM_SMALLM_STAGES_CK8=3" &
b /tmp/base /tmp/base/build "$R/build-base.log" &
wait
echo "builds done at $((SECONDS-T0)) s"
grep -h "spill" "$R"/build-*.log | grep -v "0 bytes spill" | sort | uniq -c | head -5
timeout 150 build-r3/tests/mixgemm_gpu_tests --gtest_filter='Smallm.*:GemmApi.*:-SmallmTiming.*' > "$R/tests-ck8.log" 2>&1
echo "tests ck8 rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-ck8.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
timeout 150 build-r3-s3/tests/mixgemm_gpu_tests --gtest_filter='Smallm.*:-SmallmTiming.*' > "$R/tests-ck8s3.log" 2>&1
echo "tests ck8s3 rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-ck8s3.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool build-r3/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/ck8-$tool.log" 2>&1
  echo "ck8 $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/ck8-$tool.log" | tail -1)"
done
bench() {  # $1 build, $2 stem
  timeout 90 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 --types f16.u4b8.g128 \
    --baselines cublas_fp16 --iters 30 --warmup 5 --verify --csv "$R/$2.csv" --git-commit "$(cat "$R/commit.txt")" \
    --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench /tmp/base/build base; bench build-r3 ck8; bench build-r3-s3 ck8s3; bench build-r3 ck8b; bench /tmp/base/build base2
for t in ck8 ck8s3; do
  d=build-r3; [ $t = ck8s3 ] && d=build-r3-s3
  MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,1,2,3,4,5,6,7,8,9,10,11 MIXGEMM_SMALLM_TIMING_GS=128 \
    timeout 150 $d/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > "$R/timing-$t.log" 2>&1
  echo "timing $t rc=$? at $((SECONDS-T0)) s"
done
tar czf "$OUT/s7r3.tar.gz" -C /tmp s7r3
python3 - "$R" <<'PY'
import csv, sys, os, math, re
R = sys.argv[1]
runs = {}
for s in ("base", "ck8", "ck8s3", "ck8b", "base2"):
    p = os.path.join(R, s + ".csv")
    runs[s] = {(r["shape"], r["M"]): (float(r["us_median"]), r["schedule"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"} if os.path.exists(p) else {}
def gm(a, b):
    l = [math.log((runs[a][k][0] + runs[a + "b" if a == "ck8" else a][k][0]) / (runs["base"][k][0] + runs["base2"][k][0])) for k in runs["base"] if all(k in runs[s] for s in runs)]
    return round(math.exp(sum(l) / len(l)), 4) if l else None
print("ck8 vs base geomean", gm("ck8", None), " ck8s3 vs base", gm("ck8s3", None))
for k in sorted(runs["base"]):
    print(f"{k[0]:20s} {k[1]:>2s} " + " ".join(f"{runs[s].get(k, (float('nan'), ''))[0]:8.2f}" for s in runs) + "  " + runs["ck8"].get(k, (0, ""))[1])
PY
echo "total $((SECONDS-T0)) s"
