#!/usr/bin/env bash
# session 14, call 10 (branch wip/smallm-fullk): fullk with two CTAs per SM (32 warps, 4 items in
# flight per warp) against one and the stream-K pick; fullk tests first.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/r10; rm -rf $R; mkdir -p $R
T0=$SECONDS
cmake -S . -B build-d -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk > $R/build.log 2>&1 &&
  cmake --build build-d -j 16 --target mixgemm_gpu_tests >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -30 $R/build.log; }
echo "build $((SECONDS-T0)) s"
timeout 120 build-d/tests/mixgemm_gpu_tests --gtest_filter='SmallmFullk*:-SmallmFullkTiming*' > $R/tests.log 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/tests.log | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "bad elements|differs|threw|refused" $R/tests.log | cut -c1-200 | head -5
MIXGEMM_FULLK_TIMING=1 MIXGEMM_FULLK_TIMING_MS=1,4 MIXGEMM_FULLK_TIMING_CFG=_p0 timeout 100 build-d/tests/mixgemm_gpu_tests \
  --gtest_filter='SmallmFullkTiming*' > $R/timing.log 2>&1
echo "timing rc=$? at $((SECONDS-T0)) s"
tar czf $OUT/r10.tar.gz -C /tmp r10
python3 - $R/timing.log <<'PY'
import sys, collections
rows = collections.OrderedDict()
for l in open(sys.argv[1]):
    if not l.startswith("FULLK_TIME"): continue
    d = dict(kv.split("=", 1) for kv in l.split()[1:7])
    rows.setdefault((d["N"], d["K"], d["M"]), []).append((d["cfg"], float(d["median_us"]), "smallm_pick" in l))
for (N, K, M), v in rows.items():
    base = [x for x in v if x[2]][0]
    print(f"{N:>6}x{K:<6} M={M} smallm {base[1]:6.2f} " + " ".join(f"{x[0][13:]}={x[1]:.2f}({x[1]/base[1]:.2f})" for x in v if not x[2]))
PY
echo "total $((SECONDS-T0)) s"
