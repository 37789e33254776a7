#!/usr/bin/env bash
# Session 90: the H200 queue's item 5 on an H200 (on another card it only says so): the #6 decode points in CUDA
# graphs on today's kernels, the command of ../../2026-12-06-h100/s89-graph/ (f16 / bf16 / s8 / e4m3 x u4b8 g128,
# M = 1..64, seed + Llama-2-70B, `--graph-batch 32`, cuBLAS fp16 in the same graphs, --verify). The H200's last graph-mode
# decode run is session 60's (../../2026-12-04-h200/s60-graph-decode/), on older kernels. ~6 min from a fresh machine
# (build ~3 min at 16 cores, bench capped at TOTAL - build - 30 s); $OUT/graph.tar.gz.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s90-next/graph200.sh      (repo root, device)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "gpu: $gpu"; echo "$gpu" > "$OUT/gpu.txt"
case "$gpu" in *H200*) ;; *) [ -n "${ANY_CARD:-}" ] || { echo "not an H200: nothing run"; exit 0; } ;; esac
T0=$SECONDS; TOTAL=${TOTAL:-540}
mkdir -p /tmp/graph
(cmake -S . -B build-sweep -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
   -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-sweep -j 16 --target mixgemm-bench) > /tmp/graph/build.log 2>&1 ||
  { tail -20 /tmp/graph/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"; gzip -f /tmp/graph/build.log
cp "$0" /tmp/graph/command.sh
BENCH=build-sweep/tools/mixgemm-bench MIXGEMM_GIT_COMMIT=${MIXGEMM_GIT_COMMIT:-unknown} ITERS=20 WARMUP=10 SETTLE_MS=300 \
TIME_LIMIT=$(( TOTAL - (SECONDS - T0) - 30 )) SHAPES=seed,llama2-70b TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 \
EXTRA="--m 1,2,4,8,16,32,64 --graph-batch 32 --baselines cublas_fp16 --summary-m 1,16,32,64" \
  bash scripts/run_bench_h200.sh /tmp/graph > /tmp/graph/run.log 2>&1
echo "graph rc=$? at $((SECONDS - T0)) s"
python3 scripts/decode_fit.py /tmp/graph/bench.csv 1,8,16 --t0 0.87 > /tmp/graph/decode_fit.txt 2>&1
python3 scripts/bar_status.py /tmp/graph/bench.csv > /tmp/graph/bars.md 2>&1
(cd /tmp/graph && gzip -f bench.json bench.stderr.log 2>/dev/null; tar czf "$OUT/graph.tar.gz" .)
head -3 /tmp/graph/bars.md; grep -A12 '^summary: ' /tmp/graph/bench.txt | head -14
