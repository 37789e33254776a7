#!/usr/bin/env bash
# Session 51, call 2: IST-DASLab's Marlin W4A16 (external reference, `mixgemm-bench --marlin`)
# beside mixgemm's picks and cuBLAS fp16 on the #6 shapes and Llama-3-8B's layers, M = 1..64,
# event-timed and in CUDA graphs (32 launches per replay), cold L2. Binaries built on the dev
# machine from .s51/commit.txt + the working tree (sm90: f16.u4 256x64 only; smallm: all).
# Call 1 (same bench, Marlin compiled as sm_90a SASS by nvcc 13.0) died with an illegal instruction
# in Marlin's first launch; so first a smoke run of two builds: mixgemm-bench-ptx (Marlin as
# compute_80 PTX, compiled by the driver at load, source unmodified) and mixgemm-bench-nohint
# (sm_90a SASS, Marlin's evict-first cache hint on the weight cp.async removed); the first that
# runs clean does the comparison.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
t0=$SECONDS
C=$(cat .s51/commit.txt)
nvidia-smi > $OUT/gpu.txt 2>&1
mkdir -p $OUT/raw
B=
for v in ptx nohint; do
  ./.s51/mixgemm-bench-$v --shape 8192x8192 --m 1,16,64 --types f16.u4b8.g128 --no-baselines --marlin \
    --iters 3 --warmup 1 --settle-ms 0 > $OUT/raw/smoke-$v.txt 2>&1
  rc=$?; echo "smoke $v rc=$rc: $(grep -c marlin_w4a16 $OUT/raw/smoke-$v.txt) marlin lines; $(grep -m1 -i 'error' $OUT/raw/smoke-$v.txt)"
  if [ $rc = 0 ] && [ -z "$B" ]; then B=./.s51/mixgemm-bench-$v; fi
done
[ -n "$B" ] || { (cd $OUT && tar czf raw.tar.gz raw && rm -rf raw); exit 1; }
echo "using $B" | tee $OUT/raw/binary.txt
COMMON="--shapes seed,llama2-70b,llama3-8b --m 1,2,4,8,16,32,64 --types f16.u4b8.g128,f16.u4b8.gch --baselines cublas_fp16 --marlin --iters 50 --warmup 5 --settle-ms 200 --time-limit 200 --git-commit $C"
$B $COMMON --csv $OUT/event.csv --json $OUT/raw/event.json > $OUT/raw/event.txt 2> $OUT/raw/event.stderr.log
echo "event rc=$? at $((SECONDS - t0)) s"
$B $COMMON --graph-batch 32 --csv $OUT/graph.csv --json $OUT/raw/graph.json > $OUT/raw/graph.txt 2> $OUT/raw/graph.stderr.log
echo "graph rc=$? at $((SECONDS - t0)) s"
tail -n 3 $OUT/raw/event.stderr.log $OUT/raw/graph.stderr.log
(cd $OUT && tar czf raw.tar.gz raw && rm -rf raw)
echo "== event-timed"; python3 scripts/reference_compare.py $OUT/event.csv > $OUT/event-compare.txt; tail -7 $OUT/event-compare.txt
echo "== graphs"; python3 scripts/reference_compare.py $OUT/graph.csv > $OUT/graph-compare.txt; tail -7 $OUT/graph-compare.txt
