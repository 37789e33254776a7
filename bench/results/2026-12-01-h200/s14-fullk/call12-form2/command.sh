#!/usr/bin/env bash
# session 14, call 12 (branch wip/smallm-fullk): what the magic-number conversion form would buy:
# fullk built with -DMIXGEMM_FULLK_FORM=0 (today) and =2 (1024 + q operands, offset removed per
# group), timed in alternating runs at M = 1 on 9 shapes, g128; form 2's integer tests.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/r12; rm -rf $R; mkdir -p $R
T0=$SECONDS
b() { ( cmake -S . -B $1 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DCMAKE_CUDA_FLAGS=-DMIXGEMM_FULLK_FORM=$2 &&
  cmake --build $1 -j 16 --target mixgemm_gpu_tests ) > $R/build-$2.log 2>&1 || echo "BUILD $2 FAILED"; }
b build-f0 0 & b build-f2 2 & wait
echo "builds $((SECONDS-T0)) s"
for r in 1 2; do for f in 0 2; do
  MIXGEMM_FULLK_TIMING=1 MIXGEMM_FULLK_TIMING_MS=1 MIXGEMM_FULLK_TIMING_CFG=_o1_p0 timeout 40 build-f$f/tests/mixgemm_gpu_tests \
    --gtest_filter='SmallmFullkTiming*' > $R/timing-f$f-r$r.log 2>&1
done; done
echo "timing at $((SECONDS-T0)) s"
timeout 40 build-f2/tests/mixgemm_gpu_tests --gtest_filter='SmallmFullk.F16' > $R/tests-f2.log 2>&1
echo "form 2 F16 tests rc=$?: $(grep -c 'bad elements' $R/tests-f2.log) failures listed; int specs failing: $(grep 'bad elements' $R/tests-f2.log | grep -c '\.int ')"
tar czf $OUT/r12.tar.gz -C /tmp r12
python3 - $R <<'PY'
import sys, glob, collections, statistics
R = sys.argv[1]
t = collections.defaultdict(list)
for f in glob.glob(R + "/timing-f*-r*.log"):
    form = f.split("timing-f")[1][0]
    for l in open(f):
        if l.startswith("FULLK_TIME"):
            d = dict(kv.split("=", 1) for kv in l.split()[1:7])
            t[(d["N"], d["K"], d["cfg"], form)].append(float(d["median_us"]))
keys = sorted({(k[0], k[1], k[2]) for k in t})
for N, K, c in keys:
    a, b = t.get((N, K, c, "0")), t.get((N, K, c, "2"))
    if a and b:
        print(f"{N:>6}x{K:<6} {c[13:]:10s} form0 {statistics.mean(a):6.2f}  form2 {statistics.mean(b):6.2f}  ratio {statistics.mean(b)/statistics.mean(a):.3f}")
PY
echo "total $((SECONDS-T0)) s"
