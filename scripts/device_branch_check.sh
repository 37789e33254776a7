#!/usr/bin/env bash
# Check a branch that never ran on a GPU, in one device call, without checking it out here:
#   git diff main...<branch> > .branch.patch   (three dots: the branch's own change since its merge
#                                               base; untracked, so it travels with the tree)
#   device run: PATCH=.branch.patch TYPES=s8.u4,e4m3.u4 GPU_FILTER='Sm90.W4A8*' \
#               BENCH_ARGS='--shapes seed,llama2-70b --m 1024,8192 --types s8.u4b8.g128 --schedule sm90_128x256_1x1x1_coop_splitk' \
#               bash scripts/device_branch_check.sh
# Applies the patch to a copy of the tree in /tmp, builds the GPU tests and the bench (only
# the sm90 type configs in TYPES, for time), runs GPU_FILTER, memcheck + racecheck of every
# schedule (GemmSanitize), and mixgemm-bench with BENCH_ARGS (baselines cuBLAS fp16 and
# cuBLASLt fp8, --verify). Everything lands in $OUT/branch.tar.gz; a summary is printed.
# Mind the bench's time: --all-schedules also times smallm in 64-row slabs at large M.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}
T0=$SECONDS
W=/tmp/branch-check; R=$W-out; rm -rf "$W" "$R"; mkdir -p "$W" "$R"
tar cf - --exclude='./build*' . | tar xf - -C "$W"
cd "$W"
if [ -n "${PATCH:-}" ]; then patch -p1 < "$PATCH" > "$R/patch.log" 2>&1 || { cat "$R/patch.log"; exit 1; }; fi
{ cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${TYPES:+-DMIXGEMM_SM90_TYPES=$TYPES} &&
  cmake --build build -j "$(nproc)" --target mixgemm_gpu_tests mixgemm-bench; } > "$R/build.log" 2>&1 ||
  { tail -30 "$R/build.log"; exit 1; }
echo "build $((SECONDS-T0)) s: $(grep -c 'spill' "$R/build.log") spill warnings"
timeout 300 ./build/tests/mixgemm_gpu_tests --gtest_filter="${GPU_FILTER:-Sm90*}" > "$R/tests.log" 2>&1
echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests.log" | tr '\n' ' ')"
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool ./build/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/$tool.log" 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$tool.log" | tail -1)"
done
if [ -n "${BENCH_ARGS:-}" ]; then
  timeout "${BENCH_TIMEOUT:-200}" ./build/tools/mixgemm-bench $BENCH_ARGS --iters 20 --warmup 3 --settle-ms ${SETTLE_MS:-300} \
    --baselines cublas_fp16,cublaslt_fp8 --verify --fp8-promotion-k 0 --csv "$R/bench.csv" --json "$R/bench.json" \
    --summary-m none --quiet > "$R/bench.txt" 2>&1
  echo "bench rc=$? ($((SECONDS-T0)) s)"
  awk -F, 'NR>1 {printf "%-20s %5s %-16s %-34s %10s us %s %s\n",$2,$5,$8,$13,$16,$14,$15}' "$R/bench.csv" | head -60
fi
tar czf "$OUT/branch.tar.gz" -C "$(dirname "$R")" "$(basename "$R")"
echo "total $((SECONDS-T0)) s"
