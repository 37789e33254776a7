#!/usr/bin/env bash
# Session 51, call 1: IST-DASLab's Marlin W4A16 (external reference, `mixgemm-bench --marlin`)
# beside mixgemm's picks and cuBLAS fp16 on the #6 shapes and Llama-3-8B's layers, M = 1..64,
# event-timed and in CUDA graphs (32 launches per replay), cold L2. Binary built on the dev
# machine from .s51/commit.txt + the working tree (restricted sm90 set: f16.u4 256x64; smallm full).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
t0=$SECONDS
B=./.s51/mixgemm-bench
C=$(cat .s51/commit.txt)
nvidia-smi > $OUT/gpu.txt 2>&1
COMMON="--shapes seed,llama2-70b,llama3-8b --m 1,2,4,8,16,32,64 --types f16.u4b8.g128,f16.u4b8.gch --baselines cublas_fp16 --marlin --iters 50 --warmup 5 --settle-ms 200 --time-limit 220 --git-commit $C"
mkdir -p $OUT/raw
$B $COMMON --csv $OUT/event.csv --json $OUT/raw/event.json > $OUT/event.txt 2> $OUT/raw/event.stderr.log
echo "event rc=$? at $((SECONDS - t0)) s"
$B $COMMON --graph-batch 32 --csv $OUT/graph.csv --json $OUT/raw/graph.json > $OUT/graph.txt 2> $OUT/raw/graph.stderr.log
echo "graph rc=$? at $((SECONDS - t0)) s"
tail -3 $OUT/raw/*.stderr.log
(cd $OUT && tar czf raw.tar.gz raw && rm -rf raw)
echo "== event-timed"; python3 scripts/reference_compare.py $OUT/event.csv | tail -8
echo "== graphs"; python3 scripts/reference_compare.py $OUT/graph.csv > $OUT/graph-compare.txt; tail -8 $OUT/graph-compare.txt
grep -E "seed|70b/o " $OUT/graph-compare.txt | grep "g128" | head -14
