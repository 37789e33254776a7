#!/usr/bin/env bash
# Session 5, device call 5: the final smallm kernel of the session (call 3 + tiles >= 16 unrolled again; call 4's per-variant kernels and single fence reverted: slower at TM 8), against the session's
# starting kernel and call 4's, in one run:
#   new  = this tree (./build-s5: Python module, GPU tests, bench; sm90 f16.u4 + s8.u4)
#   old  = this tree with .s5/old.patch applied (git diff <new> 14483a9 -- src/: session start)
#   u2   = this tree with .s5/r3.patch applied (git diff <new> 69af9a2 -- src/: call 4's kernel)
# (1) new: Smallm* and Gemm* GPU tests, memcheck + racecheck of every schedule;
# (2) bench old / new / u2(= call 4) / old again (drift), heuristic picks, f16 and s8 x u4b8 g128,
#     Llama-3-8B layers + seed + Llama-2-70B, M = 1, 8, 16, vs cuBLAS fp16;
# (3) e2e Llama-3-8B decode (graph mode + per-category profile);
# Everything lands in $OUT/s5r5.tar.gz (+ e2e csvs); a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}
T0=$SECONDS
R=/tmp/s5r5; rm -rf "$R" /tmp/old /tmp/u2; mkdir -p "$R" "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$R/gpu.txt" 2>&1
echo "${COMMIT:-unknown}" > "$R/commit.txt"
for t in old u2; do mkdir -p /tmp/$t && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/$t; done
(cd /tmp/old && patch -p1 < .s5/old.patch) > "$R/patch-old.log" 2>&1 || echo "OLD PATCH FAILED"
(cd /tmp/u2 && patch -p1 < .s5/r3.patch) > "$R/patch-r3.log" 2>&1 || echo "R3 PATCH FAILED"
SMALL=(-DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF)
( cmake -S . -B build-s5 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON \
    -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 && cmake --build build-s5 -j 16 ) > "$R/build-new.log" 2>&1 &
( cmake -S /tmp/old -B /tmp/old/build -G Ninja -DCMAKE_BUILD_TYPE=Release "${SMALL[@]}" &&
  cmake --build /tmp/old/build -j 16 --target mixgemm-bench ) > "$R/build-old.log" 2>&1 &
( cmake -S /tmp/u2 -B /tmp/u2/build -G Ninja -DCMAKE_BUILD_TYPE=Release "${SMALL[@]}" &&
  cmake --build /tmp/u2/build -j 16 --target mixgemm-bench ) > "$R/build-u2.log" 2>&1 &
wait
echo "builds done at $((SECONDS-T0)) s: new '$(tail -1 "$R/build-new.log" | cut -c1-50)' old '$(tail -1 "$R/build-old.log" | cut -c1-50)' u2 '$(tail -1 "$R/build-u2.log" | cut -c1-50)'"
N=./build-s5
timeout 240 $N/tests/mixgemm_gpu_tests --gtest_filter='Smallm*:Gemm*' > "$R/tests.log" 2>&1
echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "^\[  FAILED" "$R/tests.log" | head -5
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool $N/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/$tool.log" 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$tool.log" | tail -1)"
done
bench() {  # $1 build, $2 stem, rest: extra args
  local b=$1 o=$2; shift 2
  timeout 100 "$b/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 --baselines cublas_fp16 \
    --iters 30 --warmup 5 --verify --csv "$R/$o.csv" --json "$R/$o.json" --summary-m none --quiet "$@" > "$R/$o.txt" 2>&1
  echo "bench $o rc=$? at $((SECONDS-T0)) s"
}
T=(--types f16.u4b8.g128,s8.u4b8.g128)
bench /tmp/old/build sm-old "${T[@]}"; bench $N sm-new "${T[@]}"; bench /tmp/u2/build sm-u2 "${T[@]}"
bench /tmp/old/build sm-old2 --types f16.u4b8.g128
export PYTHONPATH=$PWD/build-s5/python PYTHONUNBUFFERED=1
timeout 120 python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 --batches 1,8 \
  --variants fp16,w4a16,w4a8-s8 --out "$OUT/e2e-graph.csv" --profile-out "$OUT/e2e-profile.csv" > "$OUT/e2e-graph.log" 2>&1
echo "e2e rc=$? at $((SECONDS-T0)) s"; grep -E "^\[e2e\].*(batch|us \()" "$OUT/e2e-graph.log"
prof() {  # $1 tag, rest: bench args
  local tag=$1; shift
  timeout 60 ncu --clock-control none --kernel-name regex:smallm --launch-skip 4 --launch-count 1 \
    --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section SourceCounters \
    -o "$R/prof_$tag" $N/tools/mixgemm-bench "$@" --m 1 --types f16.u4b8.g128 --no-baselines --iters 3 --warmup 2 \
    --quiet > "$R/ncu_$tag.log" 2>&1
  ncu -i "$R/prof_$tag.ncu-rep" --page details > "$R/details_$tag.txt" 2>&1
  ncu -i "$R/prof_$tag.ncu-rep" --page source --csv --print-source sass > "$R/source_$tag.csv" 2>&1
  gzip -f "$R/source_$tag.csv"; rm -f "$R/prof_$tag.ncu-rep"
}
if [ $((SECONDS-T0)) -lt 470 ]; then
  true
  python3 scripts/ncu_summary.py --reasons "$R"/source_*.csv.gz | grep -E "^==|stall reasons"
  for f in "$R"/details_*.txt; do echo "$(basename "$f"): $(grep -E '^ *Duration' "$f" | head -1)"; done
fi
tar czf "$OUT/s5r5.tar.gz" -C /tmp s5r5
echo "== us (start 14483a9 | call-4 69af9a2 | new | start again), heuristic picks"
python3 - "$R" <<'PY'
import csv, sys, os
R = sys.argv[1]
def load(stem):
    p = os.path.join(R, stem + ".csv")
    if not os.path.exists(p): return {}
    return {(r["shape"], r["M"], r["type_spec"]): r for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"}
runs = {s: load(s) for s in ("sm-old", "sm-u2", "sm-new", "sm-old2")}
for k in sorted(runs["sm-old"], key=lambda k: (k[2], k[0], int(k[1]))):
    v = [runs[s].get(k, {}).get("us_median", "-") for s in runs]
    f = runs["sm-new"].get(k, {})
    print(f"{k[2]:14s} {k[0]:20s} M={k[1]:>2s} " + " ".join(f"{x:>8s}" for x in v) +
          f"  new {f.get('pct_floor','-')}% floor x{f.get('x_cublas_fp16','-')} {f.get('schedule','')[:18]} {f.get('verify','')}")
PY
echo "total $((SECONDS-T0)) s"
