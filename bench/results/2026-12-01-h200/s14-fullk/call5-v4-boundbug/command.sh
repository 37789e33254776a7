#!/usr/bin/env bash
# session 14, call 5: fullk v4 (fast groups without per-item bookkeeping): tests, sanitizers, timing, ncu.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/r5; rm -rf $R; mkdir -p $R
T0=$SECONDS
cmake -S . -B build-d -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk > $R/build.log 2>&1 &&
  cmake --build build-d -j 16 --target mixgemm_gpu_tests >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -30 $R/build.log; }
echo "build $((SECONDS-T0)) s"
timeout 200 build-d/tests/mixgemm_gpu_tests --gtest_filter='SmallmFullk*:-SmallmFullkTiming*' > $R/tests.log 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/tests.log | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "bad elements|differs|threw|refused" $R/tests.log | cut -c1-250 | head -8
MIXGEMM_FULLK_TIMING=1 timeout 200 build-d/tests/mixgemm_gpu_tests --gtest_filter='SmallmFullkTiming*' > $R/timing.log 2>&1
echo "timing rc=$? at $((SECONDS-T0)) s"
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool build-d/tests/mixgemm_gpu_tests --gtest_filter='SmallmFullkSanitize*' > $R/$tool.log 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tail -1)"
done
for c in 3:fullk_t8_w16:fullk 5:fullk_t8_w8:fullk; do
  IFS=: read -r shape cfg kn <<< "$c"
  tag="s${shape}_${cfg}"
  MIXGEMM_FULLK_TIMING=1 MIXGEMM_FULLK_TIMING_SHAPES=$shape MIXGEMM_FULLK_TIMING_MS=1 MIXGEMM_FULLK_TIMING_CFG=$cfg \
    timeout 120 ncu --kernel-name regex:$kn --launch-skip 3 --launch-count 1 --clock-control none \
    --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section InstructionStats \
    --section SourceCounters -o $R/prof_$tag build-d/tests/mixgemm_gpu_tests --gtest_filter='SmallmFullkTiming*' > $R/ncu_$tag.log 2>&1
  ncu -i $R/prof_$tag.ncu-rep --page details > $R/details_$tag.txt 2>&1
  ncu -i $R/prof_$tag.ncu-rep --page source --csv --print-source sass > $R/source_$tag.csv 2>&1
  rm -f $R/prof_$tag.ncu-rep
  echo "ncu $tag at $((SECONDS-T0)) s"
done
python3 scripts/ncu_summary.py --reasons --by-op $R/source_*.csv 2>&1 | grep -E 'warp instructions|top opcodes|by opcode|stall reasons' | head -40
for f in $R/details_*.txt; do
  echo "== $(basename $f)"
  grep -E "Issued Warp Per Scheduler|^ *Duration|DRAM Throughput|No Eligible|Active Warps Per Scheduler|Eligible Warps|Executed Instructions " $f | head -10
done
tar czf $OUT/r5.tar.gz -C /tmp r5
python3 - /tmp/r5/timing.log <<'PY'
import sys, re, collections
rows = collections.OrderedDict()
for l in open(sys.argv[1]):
    if not l.startswith("FULLK_TIME"): continue
    d = dict(kv.split("=", 1) for kv in l.split()[1:5] + l.split()[5:6])
    key = (d["N"], d["K"], d["M"])
    rows.setdefault(key, []).append((d["cfg"], float(d["median_us"]), "smallm_pick" in l))
for (N, K, M), v in rows.items():
    base = [x for x in v if x[2]][0]
    fk = [x for x in v if not x[2]]
    if not fk:
        print(f"{N:>6}x{K:<6} M={M:>2} smallm {base[1]:7.2f} ({base[0][7:]})  fullk: none fits"); continue
    best = min(fk, key=lambda x: x[1])
    print(f"{N:>6}x{K:<6} M={M:>2} smallm {base[1]:7.2f} ({base[0][7:]})  fullk best {best[1]:7.2f} ({best[0][13:]})  ratio {best[1]/base[1]:.3f}  all: " + " ".join(f"{x[0][13:]}={x[1]:.1f}" for x in v if not x[2]))
PY
echo "total $((SECONDS-T0)) s"
