#!/usr/bin/env bash
# Session 51, call 7: HandH1998's QQQ W4A8 kernel (external reference, `mixgemm-bench --qqq`) beside mixgemm's s8
# picks and cuBLAS fp16 on the #6 shapes (seed, Llama-2-70B), M = 1 / 4 / 16 / 64, event-timed and in CUDA graphs
# (32 launches per replay), cold L2. Binary built on the dev machine by scripts/build_reference_kernels.sh
# (sm90: f16.u4 and s8.u4 256x64; smallm: all). A smoke run first: the QQQ file is compiled as published but for its
# torch binding.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
t0=$SECONDS
B=./.s51/bench-ref
C=$(cat .s51/commit.txt)
mkdir -p $OUT/raw
nvidia-smi > $OUT/raw/gpu.txt 2>&1
$B --shape 8192x8192 --m 1,16,64 --types s8.u4b8.g128 --no-baselines --qqq --iters 3 --warmup 1 --settle-ms 0 \
  > $OUT/raw/smoke.txt 2>&1
rc=$?; echo "smoke rc=$rc: $(grep -c qqq_w4a8 $OUT/raw/smoke.txt) qqq lines; $(grep -m1 -i 'error' $OUT/raw/smoke.txt)"
if [ $rc = 0 ]; then
  COMMON="--shapes seed,llama2-70b --m 1,4,16,64 --types s8.u4b8.g128,s8.u4b8.gch --baselines cublas_fp16 --qqq --iters 40 --warmup 5 --settle-ms 200 --time-limit 150 --git-commit $C"
  $B $COMMON --csv $OUT/event.csv --json $OUT/raw/event.json > $OUT/raw/event.txt 2> $OUT/raw/event.stderr.log
  echo "event rc=$? at $((SECONDS - t0)) s"
  $B $COMMON --graph-batch 32 --csv $OUT/graph.csv --json $OUT/raw/graph.json > $OUT/raw/graph.txt 2> $OUT/raw/graph.stderr.log
  echo "graph rc=$? at $((SECONDS - t0)) s"
  python3 scripts/reference_compare.py --reference qqq_w4a8 $OUT/event.csv > $OUT/event-compare.txt
  python3 scripts/reference_compare.py --reference qqq_w4a8 $OUT/graph.csv > $OUT/graph-compare.txt
  echo "== event"; tail -5 $OUT/event-compare.txt; echo "== graph"; tail -5 $OUT/graph-compare.txt
  grep -E "^ +seed " $OUT/event-compare.txt
fi
(cd $OUT && tar czf raw.tar.gz raw && rm -rf raw)
