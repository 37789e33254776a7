#!/usr/bin/env bash
# Session 36 call 2: session 35's cluster exchange with the producer warpgroup's cluster wait moved before the roles
# split (pair2.patch, branch wip/sm90-cluster-exchange2) against main, one run (base v1 v1 base), its tests and both
# sanitizers; then trace builds of both and the CTAs' mainloop times at M = 256 (the pair kernels' mainloop ran
# 15-17% longer for e4m3; its producer compiled to the vector datapath, R2UR / LDC, with the wait in thread 0's branch).
S=${S:-.s36}
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
T0=$SECONDS
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b AB_MS=192,256 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128 AB_SETTLE_MS=150 \
  AB_TEST_FILTER='GemmApi.*:Sm90.*:-Sm90Timing.*' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.*'
timeout 420 bash scripts/device_sm90_multi.sh $S/pair2.patch 2>&1 | grep -v "^bench "
python3 scripts/ab_multi_summary.py /tmp/multi base pair2 > $OUT/summary.txt 2>&1
MIXGEMM_PRINT_CONFIG=1 timeout 30 /tmp/v1/build/tools/mixgemm-bench --shapes llama2-70b --m 256 --types s8.u4b8.g128 \
  --no-baselines --iters 3 --warmup 1 --summary-m none 2>&1 | grep "mixgemm\]" | head -12 > $OUT/print-config.txt
echo "A/B done at $((SECONDS - T0)) s"
if [ $((SECONDS - T0)) -lt 420 ]; then
  for v in 0 1; do
    ( cmake -S /tmp/v$v -B /tmp/v$v/build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4,e4m3.u4 \
        -DMIXGEMM_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_TRACE && \
      cmake --build /tmp/v$v/build-tr -j 16 --target mixgemm-bench ) > /tmp/multi/build-tr-$v.log 2>&1 &
  done
  wait
  for v in 0 1; do
    MIXGEMM_SM90_TRACE_FILE=/tmp/multi/trace-v$v.txt timeout 60 /tmp/v$v/build-tr/tools/mixgemm-bench --shapes llama2-70b \
      --m 256 --types s8.u4b8.g128,e4m3.u4b8.g128 --no-baselines --iters 20 --warmup 10 --settle-ms 0 --summary-m none \
      > /dev/null 2>&1
    python3 scripts/sm90_trace_summary.py /tmp/multi/trace-v$v.txt > /tmp/multi/trace-v$v-summary.txt 2>&1
    echo "== v$v (mainloop per CTA, us: min / median / max; last exit)"
    python3 - /tmp/multi/trace-v$v.txt <<'PY'
import sys, statistics as st, collections
keys = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if 'cta' not in f: continue
    i = f.index('cta'); keys[' '.join(f[:i])].append([int(x) for x in f[i + 2:]])
for k, rows in keys.items():
    t0 = min(r[0] for r in rows)
    ml = [(r[4] - r[2]) / 1e3 for r in rows if r[4] < 2**63 and r[2] < 2**63]
    ex = max(r[9] for r in rows if r[9] < 2**63)
    print(f"{k[:90]:90s} {min(ml):7.2f} {st.median(ml):7.2f} {max(ml):7.2f}   exit {(ex - t0) / 1e3:7.2f}")
PY
  done
  gzip -f /tmp/multi/trace-v*.txt
  echo "traces done at $((SECONDS - T0)) s"
fi
tar czf $OUT/multi.tar.gz -C /tmp multi
cat $OUT/summary.txt | head -60
