#!/usr/bin/env bash
# Session 5, device call 7: ncu of the smallm decode launch with the code warm in L2 as in the
# bench and the e2e graph (--cache-control none, --clock-control none; the earlier profiles
# flushed every cache, which made instruction fetch look like the first stall): the Llama-3-8B
# o (4096 x 4096, t8_w8_o1) and gate_up (28672 x 4096, t8_w4_o4) layers at M = 1, the 4th
# launch of each (the first three warm the code). Stall reasons summed over the SASS.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
( cmake -S . -B build-s5 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_TESTS=OFF \
    -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk &&
  cmake --build build-s5 -j 16 --target mixgemm-bench ) > "$OUT/build.log" 2>&1
echo "build rc=$? $((SECONDS-T0)) s"
prof() {  # $1 tag, $2 shape
  timeout 60 ncu --cache-control none --clock-control none --kernel-name regex:smallm --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section SourceCounters \
    --section MemoryWorkloadAnalysis -o "$OUT/prof_$1" ./build-s5/tools/mixgemm-bench --shape "$2" --m 1 \
    --types f16.u4b8.g128 --no-baselines --iters 3 --warmup 2 --quiet > "$OUT/ncu_$1.log" 2>&1
  ncu -i "$OUT/prof_$1.ncu-rep" --page details > "$OUT/details_$1.txt" 2>&1
  ncu -i "$OUT/prof_$1.ncu-rep" --page source --csv --print-source sass > "$OUT/source_$1.csv" 2>&1
  gzip -f "$OUT/source_$1.csv"; rm -f "$OUT/prof_$1.ncu-rep"
}
prof o-m1 4096x4096
prof gate_up-m1 28672x4096
python3 scripts/ncu_summary.py --reasons "$OUT"/source_*.csv.gz
for f in "$OUT"/details_*.txt; do
  echo "== $(basename "$f")"; grep -E "^ *Duration|DRAM Throughput|Issued Warp Per Scheduler|Eligible Warps|L2 Hit Rate" "$f" | head -6
done
echo "total $((SECONDS-T0)) s"
