#!/usr/bin/env bash
# Nsight Compute source-level profile of the smallm (decode) kernel, for the work on
# issue #6 (docs/design-smallm.md, "Not done / open"). Run on the GPU machine:
#   OUT=<dir> bash scripts/profile_smallm.sh       (device tool: $OUT is set)
# Builds the GPU tests (only the f16.u4 sm90 instances; BUILD= reuses a build dir), then
# profiles one launch of each case below through the SmallmTiming report (random data,
# f16 x u4b8 g128): SpeedOfLight, memory, scheduler and warp-state statistics, and
# per-SASS-instruction counts and stall samples. Prints issued IPC, DRAM throughput and
# the dominating opcodes / stalls. CASES="<shape>:<M>:<cfg substring> ..." overrides;
# NCU_EXTRA adds ncu flags (e.g. "--clock-control none --cache-control none": real clocks, and
# code and data left in L2 as in back-to-back launches). KERNEL picks the kernel (default: the GEMM grid
# itself, not the deferred split-K reduction grid, which session 40's call 7 profiled by mistake with
# the old "regex:smallm").
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
B=${BUILD:-build-prof}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
if [ ! -x "$B/tests/mixgemm_gpu_tests" ]; then
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_BUILD_TOOLS=OFF > "$OUT/build.log" 2>&1 &&
    cmake --build "$B" -j "$(nproc)" --target mixgemm_gpu_tests >> "$OUT/build.log" 2>&1 || {
    tail -30 "$OUT/build.log"; exit 1; }
fi
# shape index (tests/gpu/test_smallm.cu all_shapes: 0 seed 8192x21760, 2 8192x8192), M, config
CASES=${CASES:-"0:1:t8_w4_o4_p0 2:1:t8_w4_o4_p0 0:16:t16_w8_o2_p0"}
for c in $CASES; do
  IFS=: read -r shape m cfg <<< "$c"
  tag="s${shape}_m${m}_${cfg}"
  MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=$shape MIXGEMM_SMALLM_TIMING_MS=$m \
    MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=$cfg timeout 300 \
    ncu --kernel-name "${KERNEL:-regex:^smallm_kernel}" --launch-skip 3 --launch-count 1 ${NCU_EXTRA:-} \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section SchedulerStats \
    --section WarpStateStats --section Occupancy --section SourceCounters -o "$OUT/prof_$tag" \
    "$B/tests/mixgemm_gpu_tests" --gtest_filter='SmallmTiming*' > "$OUT/ncu_$tag.log" 2>&1 || true
  ncu -i "$OUT/prof_$tag.ncu-rep" --page details > "$OUT/details_$tag.txt" 2>&1
  ncu -i "$OUT/prof_$tag.ncu-rep" --page source --csv --print-source sass > "$OUT/source_$tag.csv" 2>&1
  # The same samples with each SASS instruction under its CUDA source line (-lineinfo builds):
  # which function (load_stage, compute_chunk, ...) an instruction belongs to.
  ncu -i "$OUT/prof_$tag.ncu-rep" --page source --csv --print-source cuda,sass > "$OUT/sourcecs_$tag.csv" 2>&1
done
python3 scripts/ncu_summary.py --reasons --by-op "$OUT"/source_*.csv
for f in "$OUT"/details_*.txt; do
  echo "== $(basename "$f")"
  grep -E "Issued Warp Per Scheduler|^ *Duration|DRAM Throughput|Achieved Occupancy|No Eligible|Active Warps Per Scheduler|Eligible Warps" "$f" | head -12
done
# One archive for the per-case files (the device tool returns at most a few files per call:
# session 13's three source CSVs did not come back), and no .ncu-rep (large).
( cd "$OUT" && tar czf profile_cases.tar.gz source_*.csv sourcecs_*.csv details_*.txt ncu_*.log &&
  rm -f source_*.csv sourcecs_*.csv details_*.txt ncu_*.log prof_*.ncu-rep )
