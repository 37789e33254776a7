#!/usr/bin/env bash
# For the next session's first device call: the two smallm experiments of session 6 against
# main, in one run. Patches (ignored folder, carried):
#   mkdir -p .s7; git diff main...wip/smallm-smem-reduce  > .s7/smemred.patch
#                 git diff main...wip/smallm-ring-parallel > .s7/ringpar.patch
# device run: bash scripts/device_s7_branches.sh   (carry .s7)
# (1) each branch's smallm/GemmApi GPU tests, memcheck + racecheck of the sanitizer suite;
# (2) bench main / smemred / ringpar / main again, heuristic picks, f16 x u4b8 g128, the
#     Llama-3-8B layers + seed + Llama-2-70B, M = 1/8/16;
# (3) the per-CTA timeline (-DMIXGEMM_SMALLM_TRACE) of each tree on seed, 4096 x 4096 and
#     6144 x 4096 at M = 1 (scripts/smallm_trace_summary.py).
# Everything lands in $OUT/s7.tar.gz; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s7; rm -rf "$R"; mkdir -p "$R"
cp .s7/commit.txt "$R/commit.txt" 2>/dev/null || git rev-parse HEAD > "$R/commit.txt"  # host commit: the device copy's git metadata can be stale
for t in smemred ringpar; do
  rm -rf /tmp/$t && mkdir -p /tmp/$t && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/$t &&
    (cd /tmp/$t && patch -p1 < .s7/$t.patch) > "$R/patch-$t.log" 2>&1 || echo "PATCH $t FAILED"
done
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
b() { local s=$1 d=$2 l=$3; shift 3; ( cmake -S "$s" -B "$d" "${T[@]}" "$@" && cmake --build "$d" -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > "$l" 2>&1 || echo "BUILD $l FAILED"; }
b . build-s7 "$R/build-main.log" &
b . build-s7-tr "$R/build-main-tr.log" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE &
for t in smemred ringpar; do
  b /tmp/$t /tmp/$t/build "$R/build-$t.log" &
  b /tmp/$t /tmp/$t/build-tr "$R/build-$t-tr.log" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE &
done
wait
echo "builds done at $((SECONDS-T0)) s"
F='Smallm.*:GemmApi.*:-SmallmTiming.*'
for t in smemred ringpar; do
  timeout 150 /tmp/$t/build/tests/mixgemm_gpu_tests --gtest_filter="$F" > "$R/tests-$t.log" 2>&1
  echo "tests $t rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-$t.log" | tr '\n' ' ')"
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool $tool /tmp/$t/build/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/$t-$tool.log" 2>&1
    echo "$t $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$t-$tool.log" | tail -1)"
  done
done
bench() {  # $1 build, $2 stem
  timeout 90 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 --types f16.u4b8.g128 \
    --baselines cublas_fp16 --iters 30 --warmup 5 --verify --csv "$R/$2.csv" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench build-s7 main; bench /tmp/smemred/build smemred; bench /tmp/ringpar/build ringpar; bench build-s7 main2
trace() {  # $1 build, $2 stem
  MIXGEMM_SMALLM_TRACE_FILE=$R/trace-$2.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,5,6 \
    MIXGEMM_SMALLM_TIMING_MS=1 MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=t8_w \
    timeout 100 "$1/tests/mixgemm_gpu_tests" --gtest_filter='SmallmTiming.Report' > "$R/timing-$2.log" 2>&1
  echo "trace $2 rc=$? at $((SECONDS-T0)) s"; gzip -f "$R/trace-$2.txt"
}
trace build-s7-tr main; trace /tmp/smemred/build-tr smemred; trace /tmp/ringpar/build-tr ringpar
tar czf "$OUT/s7.tar.gz" -C /tmp s7
for t in main smemred ringpar; do python3 scripts/smallm_trace_summary.py "$R/trace-$t.txt.gz" | grep -E "_p0"; done
python3 - "$R" <<'PY'
import csv, sys, os, math
R = sys.argv[1]
runs = {}
for s in ("main", "smemred", "ringpar", "main2"):
    p = os.path.join(R, s + ".csv")
    runs[s] = {(r["shape"], r["M"]): float(r["us_median"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"} if os.path.exists(p) else {}
print("shape M " + " ".join(runs))
for k in sorted(runs["main"]):
    print(f"{k[0]:20s} {k[1]:>2s} " + " ".join(f"{runs[s].get(k, float('nan')):8.2f}" for s in runs))
for s in ("smemred", "ringpar"):
    l = [math.log(runs[s][k] / ((runs["main"][k] + runs["main2"][k]) / 2)) for k in runs["main"] if k in runs[s] and k in runs["main2"]]
    if l: print(s, "geomean vs main", round(math.exp(sum(l) / len(l)), 4))
PY
echo "total $((SECONDS-T0)) s"
