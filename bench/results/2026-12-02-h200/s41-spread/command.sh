#!/usr/bin/env bash
# Session 41, call 3: how much of a decode launch is the spread of the CTAs' end times, at the schedules the heuristic
# picks for the large layers (t8_w8_o2 / t8_w4_o4: 2 / 4 CTAs per SM) and t8_w8_o1, M = 1, f16 x u4b8 g128 (trace
# build): per launch, the CTAs' final-segment times (min / mean / max after the first entry). max - mean bounds what a
# dynamic split of the rows could save. (Call 3b: the trace also records each CTA's SM: the SMs' end times.)
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT/r
t0=$SECONDS
cmake -S . -B build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF -DMIXGEMM_BUILD_TOOLS=OFF \
  -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE > $OUT/r/build-tr.log 2>&1 && \
  cmake --build build-tr -j 16 --target mixgemm_gpu_tests >> $OUT/r/build-tr.log 2>&1 || { tail -20 $OUT/r/build-tr.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
for cfg in t8_w8_o2 t8_w4_o4 t8_w8_o1; do
  MIXGEMM_SMALLM_TRACE_FILE=$OUT/r/trace-$cfg.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,3,2,4,7,8,5 \
    MIXGEMM_SMALLM_TIMING_MS=1 MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=${cfg}_p0 \
    timeout 150 build-tr/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > $OUT/r/timing-$cfg.log 2>&1
  echo "$cfg rc=$? at $((SECONDS - t0)) s"
done
python3 - <<'PY' | tee $OUT/spread.txt
import collections, glob, os, statistics
out = os.environ.get("OUT", "device-out")
ENTRY, FINAL, EXIT = 0, 4, 7
for path in sorted(glob.glob(f"{out}/r/trace-*.txt")):
    by = collections.defaultdict(list)
    for line in open(path):
        p = line.split(); by[p[0]].append([int(x) for x in p[2:]])
    for tag, rows in by.items():
        e0 = min(r[ENTRY] for r in rows)
        fin = sorted((r[FINAL] - e0) / 1e3 for r in rows if r[FINAL])
        ex = max((r[EXIT] - e0) / 1e3 for r in rows if r[EXIT])
        if not fin: continue
        mean = statistics.mean(fin)
        print(f"{tag:40s} ctas {len(rows):4d} final min {fin[0]:6.2f} p10 {fin[len(fin)//10]:6.2f} mean {mean:6.2f} "
              f"p90 {fin[9*len(fin)//10]:6.2f} max {fin[-1]:6.2f} exit {ex:6.2f} | max-mean {fin[-1]-mean:5.2f} us = {100*(fin[-1]-mean)/ex:4.1f}% of span")
PY
for f in $OUT/r/trace-*.txt; do python3 scripts/smallm_trace_summary.py $f | grep -A12 "^per SM"; done | tee $OUT/per-sm.txt
grep -h "SMALLM_TIME" $OUT/r/timing-*.log | head -30
(cd $OUT && gzip -f r/*.txt r/*.log && tar czf results.tgz r && rm -rf r)
echo "done at $((SECONDS - t0)) s"
