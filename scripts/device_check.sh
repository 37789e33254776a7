#!/usr/bin/env bash
# One pass on a GPU machine: build, run the GPU suites (one process per family, so a
# fault in one cannot hide the rest), the demo, the timing modes and the benchmark.
# Logs go to $OUT (or ./device-out); a short table is printed last.
#   STAGES="build sass tests demo smallm sm90 bench sanitize" (default: all); CMAKE_ARGS=... adds
#   configure options (e.g. -DMIXGEMM_BUILD_PYTHON=ON for the in-tree Python package)
#   MIXGEMM_GIT_COMMIT=<commit> (the host's HEAD, written into the command) is recorded as the commit.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
# Logs are kept outside $OUT and come back as one tarball: the device tool returns at most
# 8 files (logs.tar.gz, summary.txt and the benchmark's six files).
L=${LOGS:-/tmp/mixgemm-device-logs/logs}
rm -rf "$L"; mkdir -p "$L" "$OUT"
STAGES=${STAGES:-"build sass tests demo smallm sm90 bench sanitize"}
has() { [[ " $STAGES " == *" $1 "* ]]; }
export PATH=/usr/local/cuda/bin:$PATH
summary=()
t0=$(date +%s)

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$L/gpu.txt" 2>&1
# The recorded commit: $MIXGEMM_GIT_COMMIT (as run_bench_h200.sh), else the tree's git. Pass it
# from the host: the device's copy of the tree can carry stale git metadata (session 16's
# s16-final recorded the session's first commit).
if [ -n "${MIXGEMM_GIT_COMMIT:-}" ]; then echo "$MIXGEMM_GIT_COMMIT"; else git rev-parse HEAD 2>/dev/null; fi > "$L/commit.txt" || true

if has build; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-} > "$L/build.log" 2>&1 &&
    cmake --build build -j "$(nproc)" -- -k 0 >> "$L/build.log" 2>&1
  rc=$?
  summary+=("build rc=$rc ($(( $(date +%s) - t0 )) s)")
  if [ $rc -ne 0 ]; then tail -40 "$L/build.log"; fi
fi

if has sass; then
  # Every sm90 kernel must issue warpgroup MMAs (HGMMA for f16/bf16, IGMMA for s8, QGMMA for
  # e4m3) and use no local memory (no spills, no stack arrays).
  cuobjdump -sass build/libmixgemm.a > "$L/sass.txt" 2>&1
  awk '/Function : .*sm90_kernel/{f=$3; h[f]=0; l[f]=0} /Function : /{if ($3 !~ /sm90_kernel/) f=""}
       f!="" && /[HIQ]GMMA/{h[f]++} f!="" && /(STL|LDL)/{l[f]++}
       END{for (k in h) printf "SASS %s GMMA=%d local=%d\n", k, h[k], l[k]}' "$L/sass.txt" > "$L/sass_sm90.txt"
  # Local memory is tolerated outside the loops (once per unit), never inside an MMA loop.
  python3 scripts/sass_loops.py "$L/sass.txt" > "$L/sass_loops.txt" 2>&1
  summary+=("sass: $(wc -l < "$L/sass_sm90.txt") sm90 kernels, $(awk '$3=="GMMA=0"' "$L/sass_sm90.txt" | wc -l) without wgmma, $(awk '$4!="local=0"' "$L/sass_sm90.txt" | wc -l) with local memory, $(awk '$7=="local" && $8>0' "$L/sass_loops.txt" | wc -l) MMA loops (of $(grep -c ' mma ' "$L/sass_loops.txt")) with local memory inside")
fi

if has tests; then
  # ActivationQuant* was missing from this list until session 74: the checks of sessions 43-73 ran every suite but
  # ActivationQuantGpu (last run before: session 42's s42-check).
  for filter in ${GPU_FILTERS:-"Device.*" "Convert*" "Prepack*" "Smallm*" "Sm90*" "Gemm*" "ActivationQuant*"}; do
    name=$(echo "$filter" | tr -cd 'A-Za-z0-9')
    timeout 300 ./build/tests/mixgemm_gpu_tests --gtest_filter="$filter" > "$L/gpu_$name.log" 2>&1
    rc=$?
    summary+=("gpu tests $filter rc=$rc: $(grep -E '^\[  (PASSED|FAILED)' "$L/gpu_$name.log" | tr '\n' ' ')")
  done
  grep -h -E "PREPACK_BW|DEVICE" "$L"/gpu_*.log >> "$L/highlights.txt"
fi

if has demo; then
  timeout 300 ./build/tools/mixgemm-demo > "$L/demo.log" 2>&1
  summary+=("demo rc=$?: $(tail -1 "$L/demo.log")")
fi

if has smallm; then
  MIXGEMM_SMALLM_TIMING=1 timeout 300 ./build/tests/mixgemm_gpu_tests --gtest_filter="${SMALLM_TIMING_FILTER:-*Timing*}" \
    > "$L/smallm_timing.log" 2>&1
  summary+=("smallm timing rc=$?")
  grep SMALLM_TIME "$L/smallm_timing.log" >> "$L/highlights.txt"
fi

if has sm90; then
  MIXGEMM_SM90_TIMING=1 timeout 300 ./build/tests/mixgemm_gpu_tests --gtest_filter="Sm90Timing*" \
    > "$L/sm90_timing.log" 2>&1
  summary+=("sm90 timing rc=$?")
  grep SM90_TIME "$L/sm90_timing.log" >> "$L/highlights.txt"
fi

if has bench; then
  timeout 420 bash scripts/run_bench_h200.sh "$OUT/bench" > "$L/bench.log" 2>&1
  summary+=("bench rc=$?")
fi

if has sanitize; then
  timeout 240 compute-sanitizer --tool memcheck ./build/tests/mixgemm_gpu_tests \
    --gtest_filter="${SANITIZE_FILTER:-*Sanitize*}" > "$L/memcheck.log" 2>&1
  summary+=("memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$L/memcheck.log" | tail -1)")
  timeout 240 compute-sanitizer --tool racecheck ./build/tests/mixgemm_gpu_tests \
    --gtest_filter="${SANITIZE_FILTER:-*Sanitize*}" > "$L/racecheck.log" 2>&1
  summary+=("racecheck rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$L/racecheck.log" | tail -1)")
fi

tar czf "$OUT/logs.tar.gz" -C "$(dirname "$L")" logs
printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
echo "--- highlights"; cat "$L/highlights.txt" 2>/dev/null | head -60
echo "total $(( $(date +%s) - t0 )) s"
