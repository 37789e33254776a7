#!/usr/bin/env bash
# session 14, call 8: what the group-scale multiply costs (g = 0 vs g = 128) in both small-M
# kernels at M = 1 and 8: the ceiling of applying the scale to the f32 group sums instead.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/r8; rm -rf $R; mkdir -p $R
T0=$SECONDS
cmake -S . -B build-d -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk > $R/build.log 2>&1 &&
  cmake --build build-d -j 16 --target mixgemm_gpu_tests >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -30 $R/build.log; }
echo "build $((SECONDS-T0)) s"
MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,1,2,3,4,5,6,7,8 MIXGEMM_SMALLM_TIMING_MS=1,8 MIXGEMM_SMALLM_TIMING_GS=0,128 \
  timeout 150 build-d/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > $R/timing-smallm.log 2>&1
echo "smallm timing rc=$? at $((SECONDS-T0)) s"
MIXGEMM_FULLK_TIMING=1 MIXGEMM_FULLK_TIMING_MS=1 MIXGEMM_FULLK_TIMING_GS=0,128 MIXGEMM_FULLK_TIMING_CFG=_p0 \
  timeout 100 build-d/tests/mixgemm_gpu_tests --gtest_filter='SmallmFullkTiming.Report' > $R/timing-fullk.log 2>&1
echo "fullk timing rc=$? at $((SECONDS-T0)) s"
tar czf $OUT/r8.tar.gz -C /tmp r8
python3 - $R <<'PY'
import sys, re, collections
R = sys.argv[1]
sm = {}
for l in open(R + "/timing-smallm.log"):
    if l.startswith("SMALLM_TIME") and l.rstrip().endswith("pick"):
        d = dict(kv.split("=", 1) for kv in l.split()[1:7])
        sm[(d["N"], d["K"], d["M"], d["g"])] = (float(d["median_us"]), d["cfg"])
fk = collections.defaultdict(dict)
for l in open(R + "/timing-fullk.log"):
    if l.startswith("FULLK_TIME"):
        d = dict(kv.split("=", 1) for kv in l.split()[1:7])
        fk[(d["N"], d["K"], d["M"], d["g"])][d["cfg"]] = float(d["median_us"])
for (N, K, M, g) in sorted(sm):
    if g != "128": continue
    a, b = sm[(N, K, M, "128")], sm.get((N, K, M, "0"), (float("nan"), ""))
    f1 = min([v for c, v in fk.get((N, K, M, "128"), {}).items() if "fullk" in c] or [float("nan")])
    f0 = min([v for c, v in fk.get((N, K, M, "0"), {}).items() if "fullk" in c] or [float("nan")])
    print(f"{N:>6}x{K:<6} M={M:>2} smallm g128 {a[0]:6.2f} g0 {b[0]:6.2f} ({b[0]/a[0]:.2f})  fullk g128 {f1:6.2f} g0 {f0:6.2f} ({f0/f1:.2f})")
PY
echo "total $((SECONDS-T0)) s"
