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
python3 - "$OUT" <<'PYEOF'
import csv, glob, os, sys
from collections import Counter
out = sys.argv[1]
for path in sorted(glob.glob(os.path.join(out, "source_*.csv"))):
    rows = list(csv.reader(open(path)))
    if len(rows) < 3:
        print(path, "no data"); continue
    hdr, data = rows[1], rows[2:]
    iE, iS = hdr.index("Instructions Executed"), hdr.index("Warp Stall Sampling (All Samples)")
    ops, tot = Counter(), 0
    for r in data:
        if r[iE].isdigit():
            n = int(r[iE]); tot += n
            t = r[1].split()
            op = t[1] if t and t[0].startswith("@") and len(t) > 1 else (t[0] if t else "?")
            ops[op.split(".")[0]] += n
    print(f"== {os.path.basename(path)}: {tot} warp instructions")
    print("   top opcodes:", ", ".join(f"{k} {v}" for k, v in ops.most_common(12)))
    hot = sorted((r for r in data if r[iS].isdigit()), key=lambda r: -int(r[iS]))[:8]
    for r in hot:
        print(f"   stall {r[iS]:>6} exec {r[iE]:>9}  {r[1].strip()[:80]}")
PYEOF
grep -h -E "Issued Warp Per Scheduler|Duration|Compute \(SM\) Throughput|DRAM Throughput" "$OUT"/details_*.txt
