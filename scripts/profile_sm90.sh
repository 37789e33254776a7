#!/usr/bin/env bash
# Nsight Compute source-level profile of one sm90 launch per tile, for the next round of
# kernel work (docs/design-sm90.md, "What remains"). Run on the GPU machine:
#   OUT=<dir> bash scripts/profile_sm90.sh        (device tool: $OUT is set)
# Builds only f16.u4 instances (fast), then profiles the first launch of each tile in the
# Sm90Timing report (seed shape, random data): SpeedOfLight, scheduler and warp-state
# statistics, and per-SASS-instruction counts and stall samples. Prints, per tile: issued
# instructions per scheduler cycle, warp instructions per 64-k block per CTA, and the
# opcodes and stall lines that dominate. ~2 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
cmake -S . -B build-prof -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_BUILD_TOOLS=OFF > "$OUT/build.log" 2>&1 &&
  cmake --build build-prof -j "$(nproc)" --target mixgemm_gpu_tests >> "$OUT/build.log" 2>&1 || {
  tail -30 "$OUT/build.log"; exit 1; }
for tile in 128x64 128x128 128x256; do
  # The first launch of this tile (demangled: sm90_kernel<(AType)0, 4, 128, T>).
  MIXGEMM_SM90_TIMING=1 timeout 300 ncu --kernel-name-base demangled \
    --kernel-name "regex:sm90_kernel<.*, 128, ${tile#128x}>" --launch-count 1 \
    --section SpeedOfLight --section SchedulerStats \
    --section WarpStateStats --section SourceCounters -o "$OUT/prof_$tile" \
    ./build-prof/tests/mixgemm_gpu_tests --gtest_filter='Sm90Timing*' \
    > "$OUT/ncu_$tile.log" 2>&1 || true
  ncu -i "$OUT/prof_$tile.ncu-rep" --page details > "$OUT/details_$tile.txt" 2>&1
  ncu -i "$OUT/prof_$tile.ncu-rep" --page source --csv --print-source sass > "$OUT/source_$tile.csv" 2>&1
done
python3 scripts/ncu_summary.py "$OUT"/source_*.csv
grep -h -E "Issued Warp Per Scheduler|Duration|Compute \(SM\) Throughput|DRAM Throughput" "$OUT"/details_*.txt
