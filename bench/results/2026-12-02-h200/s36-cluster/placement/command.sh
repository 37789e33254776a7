#!/usr/bin/env bash
# Prepared in session 35. Why does a clustered launch run the sm90 mainloops longer (s35-cluster-trace/: the cluster
# exchange's e4m3 mainloop +15.5% on every CTA, same SASS)? Two candidates, one call (~4 min):
#   (a) the placement: main's kernels launched as 2-CTA clusters, unchanged (MIXGEMM_SM90_CLUSTER_LAUNCH=2, a
#       diagnostic in the launcher since session 35);
#   (b) a cluster-barrier phase pending during the mainloop: cluster-earlywait.patch (branch
#       wip/sm90-cluster-exchange at its last commit) is the cluster exchange with every thread's cluster wait moved
#       before the mainloop / the loads.
# Trace builds (-DMIXGEMM_SM90_TRACE) of main and main + cluster-earlywait.patch; traced: main, main clustered,
# earlywait; f16 / s8 / e4m3 u4b8 g128 on Llama-2-70B at M = 256 (o and down are the shapes the cluster exchange
# runs); per launch key the CTAs' mainloop (ml_in -> ml_done) min / median / max and the last exit.
# If (a) is slower like s35-cluster-trace, the placement costs and clusters are out until ncu says what they share;
# if only the old pair kernel was, (b) is the fix and earlywait should be A/B'd (scripts/device_sm90_multi.sh).
#   From the repository root on the device, cluster-earlywait.patch copied into .sN, .sN carried.
#   (Session 35 ran this script's first version, narrowed to e4m3 on Llama-2-70B, as s35-cluster-trace/.)
S=${S:-.s36}
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
TYPES=${TR_TYPES:-f16.u4,s8.u4,e4m3.u4}
for v in base earlywait; do
  d=/tmp/tr-$v; rm -rf $d && mkdir -p $d && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C $d
  [ $v = earlywait ] && (cd $d && patch -p1 < $S/cluster-earlywait.patch > /dev/null)
  ( cmake -S $d -B $d/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=$TYPES -DMIXGEMM_BUILD_TESTS=OFF \
      -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_TRACE && cmake --build $d/build -j 16 --target mixgemm-bench ) > $OUT/build-$v.log 2>&1 &
done
wait
run() {  # $1 label, $2 tree, then env
  local label=$1 tree=$2; shift 2
  env "$@" MIXGEMM_SM90_TRACE_FILE=/tmp/trace-$label.txt timeout 120 /tmp/tr-$tree/build/tools/mixgemm-bench \
    --shapes ${TR_SHAPES:-llama2-70b} --tp 1 --m 256 --types ${TR_BENCH_TYPES:-f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128} \
    --no-baselines --iters 20 --warmup 10 --settle-ms 0 --summary-m none > /dev/null 2>&1
  python3 scripts/sm90_trace_summary.py /tmp/trace-$label.txt > $OUT/trace-$label-summary.txt 2>&1
  gzip -c /tmp/trace-$label.txt > $OUT/trace-$label.txt.gz
  echo "== $label (mainloop per CTA, us: min / median / max; last exit)"
  python3 - /tmp/trace-$label.txt <<'PY'
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
}
run base base
run clustered base MIXGEMM_SM90_CLUSTER_LAUNCH=2
run earlywait earlywait
