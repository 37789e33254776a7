#!/usr/bin/env bash
# session 14, call 1: build, fullk correctness + sanitizers, timing vs the smallm pick.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/r1; rm -rf $R; mkdir -p $R
T0=$SECONDS
cmake -S . -B build-d -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk > $R/build.log 2>&1 &&
  cmake --build build-d -j 16 --target mixgemm_gpu_tests >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -30 $R/build.log; }
echo "build $((SECONDS-T0)) s"
timeout 200 build-d/tests/mixgemm_gpu_tests --gtest_filter='SmallmFullk*:-SmallmFullkTiming*' > $R/tests.log 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/tests.log | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "Failure|bad elements|differs" $R/tests.log | head -8
MIXGEMM_FULLK_TIMING=1 timeout 200 build-d/tests/mixgemm_gpu_tests --gtest_filter='SmallmFullkTiming*' > $R/timing.log 2>&1
echo "timing rc=$? at $((SECONDS-T0)) s"
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool build-d/tests/mixgemm_gpu_tests --gtest_filter='SmallmFullkSanitize*' > $R/$tool.log 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tail -1)"
done
tar czf $OUT/r1.tar.gz -C /tmp r1
python3 - $R/timing.log <<'PY'
import sys, re, collections
rows = collections.OrderedDict()
for l in open(sys.argv[1]):
    if not l.startswith("FULLK_TIME"): continue
    d = dict(kv.split("=", 1) for kv in l.split()[1:5] + l.split()[5:6])
    key = (d["N"], d["K"], d["M"])
    rows.setdefault(key, []).append((d["cfg"], float(d["median_us"]), "smallm_pick" in l))
for (N, K, M), v in rows.items():
    base = [x for x in v if x[2]][0]
    best = min([x for x in v if not x[2]], key=lambda x: x[1])
    print(f"{N:>6}x{K:<6} M={M:>2} smallm {base[1]:7.2f} ({base[0][7:]})  fullk best {best[1]:7.2f} ({best[0][13:]})  ratio {best[1]/base[1]:.3f}  all: " + " ".join(f"{x[0][13:]}={x[1]:.1f}" for x in v if not x[2]))
PY
echo "total $((SECONDS-T0)) s"
