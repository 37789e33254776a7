#!/usr/bin/env bash
# Prepared in session 62: every TM 16 (and TM 8) smallm schedule at M = 16 in CUDA graphs, f16 / s8 / e4m3 g128, on the
# Llama-3-8B, Llama-2-7B, Llama-2-70B layers and the seed shape, after session 62 unrolled TM 16's chunk by 2 (its
# schedules got 5-13% faster on the small layers, 0-2% on the large: the heuristic's TM 16 o1 / o2 ranking, timed in
# session 42 on the full unroll, `../../2026-12-02-h200/s42-allsched/`, may have moved). Session 42's analysis applies:
#   python3 ../../2026-12-02-h200/s42-allsched/analysis/gen_table.py allsched16.csv.gz   (kH200Graph rows, M = 16)
#   python3 ../../2026-12-02-h200/s42-allsched/analysis/cmp.py PLAN.csv allsched16.csv.gz  (picks against the best)
# Run on the tree that is to be main (after the variant-kernel decision). ~3-4 min.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS
( cmake -S . -B build-s -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && \
  cmake --build build-s -j 16 --target mixgemm-bench ) > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
echo "built at $((SECONDS - t0)) s"
C="$(cat "$(dirname "$0")/commit.txt")"
timeout 400 build-s/tools/mixgemm-bench --all-schedules --no-baselines --graph-batch 32 --iters 20 --warmup 2 \
  --settle-ms 0 --summary-m none --quiet --git-commit $C --shapes llama3-8b,llama2-7b,llama2-70b,seed --m 16 \
  --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --csv $OUT/allsched16.csv > $OUT/allsched16.txt 2>&1
echo "rc=$? at $((SECONDS - t0)) s"
gzip -f $OUT/build.log $OUT/allsched16.txt $OUT/allsched16.csv
