#!/usr/bin/env bash
# s6 round 3: per-CTA %globaltimer milestones of the smallm kernel (experiment build).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s6r3; rm -rf "$R"; mkdir -p "$R"
rm -rf /tmp/trace && mkdir -p /tmp/trace && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/trace &&
  (cd /tmp/trace && patch -p1 < .s6/trace.patch) > "$R/patch-trace.log" 2>&1 || echo "PATCH FAILED"
( cmake -S /tmp/trace -B /tmp/trace/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE &&
  cmake --build /tmp/trace/build -j 16 --target mixgemm_gpu_tests ) > "$R/build.log" 2>&1 || { echo BUILD FAILED; tail -30 "$R/build.log"; }
echo "build done at $((SECONDS-T0)) s"
MIXGEMM_SMALLM_TRACE_FILE=$R/trace.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,3,5,6 MIXGEMM_SMALLM_TIMING_MS=1 \
  MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=t8_w timeout 200 /tmp/trace/build/tests/mixgemm_gpu_tests \
  --gtest_filter='SmallmTiming.Report' > "$R/timing.log" 2>&1
echo "timing rc=$? at $((SECONDS-T0)) s"; grep SMALLM_TIME "$R/timing.log" | cut -c1-150
gzip "$R/trace.txt"; tar czf "$OUT/s6r3.tar.gz" -C /tmp s6r3
python3 - "$R/trace.txt.gz" <<'PY'
import gzip, sys, collections, statistics as st
d = collections.defaultdict(list)
for l in gzip.open(sys.argv[1], "rt"):
    f = l.split(); d[f[0]].append([int(x) for x in f[2:]])
print("tag ctas | start spread | prologue | first-stage | first-row | compute | release | reduce-tail | total (us; medians over CTAs, spread = max-min)")
for tag, rows in d.items():
    if "_p0" not in tag: continue
    t0 = min(r[0] for r in rows); end = max(r[7] for r in rows)
    med = lambda i, j: st.median([(r[j] - r[i]) / 1e3 for r in rows if r[i] and r[j]] or [0])
    red = [(r[7] - r[6]) / 1e3 for r in rows if r[6]]
    print(f"{tag} {len(rows)} | {(max(r[0] for r in rows)-t0)/1e3:.2f} | {med(0,1):.2f} | {med(1,2):.2f} | {med(2,3):.2f} | {med(3,4):.2f} | {med(4,5):.2f} | {st.median(red) if red else 0:.2f} | {(end-t0)/1e3:.2f}")
PY
echo "total $((SECONDS-T0)) s"
