#!/usr/bin/env bash
# s11: the multicast pairs with the consumers' remote `empty` arrive at default semantics
# (release.cta: no MEMBAR.ALL.GPU per arrival) and the producer's plain try_wait.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/mc; rm -rf "$R"; mkdir -p "$R"
pack() { tar czf "$OUT/mc.tar.gz" -C /tmp mc; }
B=build-mc
SCH=128x128_1x1x1_coop_splitk,128x128_2x1x1_coop_splitk,256x64_1x1x1_coop_splitk,256x64_2x1x1_coop_splitk
{ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 -DMIXGEMM_SM90_SCHEDULES=$SCH \
    -DMIXGEMM_BUILD_PYTHON=OFF -DCMAKE_CUDA_FLAGS=-Xptxas=-v &&
  timeout 300 cmake --build "$B" -j 16 --target mixgemm_gpu_tests mixgemm-bench; } > "$R/build.log" 2>&1 ||
  { echo "BUILD FAILED"; tail -40 "$R/build.log"; pack; exit 1; }
echo "build done at $((SECONDS-T0)) s; spills: $(grep -A2 'Function properties for .*sm90_kernel' "$R/build.log" | grep -E 'spill stores' | grep -vc ' 0 bytes spill stores')"
MIXGEMM_PRINT_CONFIG=1 timeout 60 "$B/tests/mixgemm_gpu_tests" --gtest_filter='Sm90Sanitize.*' > "$R/smoke.log" 2>&1
rc=$?; echo "smoke rc=$rc $(grep -E '^\[  (PASSED|FAILED)' "$R/smoke.log" | tr '\n' ' ')"
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then echo HANG; pack; exit 1; fi
timeout 200 "$B/tests/mixgemm_gpu_tests" --gtest_filter='Sm90*:Gemm*:-Sm90Timing.*:GemmSanitize*' > "$R/tests.log" 2>&1
echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E '^\[  FAILED  \]' "$R/tests.log" | head
pack
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool "$B/tests/mixgemm_gpu_tests" --gtest_filter='Sm90Sanitize*' > "$R/$tool.log" 2>&1 &
done
wait
for tool in memcheck racecheck; do echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$tool.log" | tail -1)"; done
pack
run() {  # schedule, M list, extra
  timeout 120 "$B/tools/mixgemm-bench" --shapes seed,llama2-70b --m "$2" --types f16.u4b8.g128,s8.u4b8.g128 \
    --schedule "sm90_$1" $3 --iters 15 --warmup 3 --copy-gib 0.5 --csv "$R/b_$1.csv" --summary-m none --quiet > "$R/b_$1.txt" 2>&1
  echo "bench $1 rc=$? at $((SECONDS-T0)) s"
}
run 128x128_1x1x1_coop_splitk 128,256,1024 "--baselines cublas_fp16 --verify"
run 128x128_2x1x1_coop_splitk 128,256,1024 "--no-baselines --verify"
run 256x64_1x1x1_coop_splitk 64,128 "--no-baselines"
run 256x64_2x1x1_coop_splitk 64,128 "--no-baselines --verify"
pack
python3 - "$R" <<'PY'
import csv, glob, math, os, sys
R = sys.argv[1]; rows = {}
for f in glob.glob(os.path.join(R, "b_*.csv")):
    for r in csv.DictReader(open(f)):
        if r["us_median"]: rows[(r["shape"], r["type_spec"], int(r["M"]), r["schedule"] if r["kernel"] == "mixgemm" else r["kernel"])] = (float(r["us_median"]), r["verify"])
pts = sorted({k[:3] for k in rows})
for t in ("128x128", "256x64"):
    a, b = f"sm90_{t}_1x1x1_coop_splitk", f"sm90_{t}_2x1x1_coop_splitk"
    logs = {}
    for p in pts:
        if p + (a,) in rows and p + (b,) in rows:
            x, y = rows[p + (a,)][0], rows[p + (b,)][0]
            cb = rows.get(p + ("cublas_fp16",), (float("nan"),))[0]
            logs.setdefault((p[1], p[2]), []).append(math.log(y / x))
            print(f"{t:8s} {p[0]:20s} {p[1]:14s} M={p[2]:5d} 1x1x1 {x:8.1f} 2x1x1 {y:8.1f} ({y/x:.3f}) cublas {cb:7.1f} verify {rows[p+(b,)][1]}")
    for k, l in sorted(logs.items()): print(f"geomean {t} {k}: {math.exp(sum(l)/len(l)):.3f}")
PY
echo "total $((SECONDS-T0)) s"
