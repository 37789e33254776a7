#!/usr/bin/env bash
# Session 89: the other-card branch of adaptive89.sh, sized for ~9 min of device time on an H100.
#   1. the four W4A8 sweeps session 88's capped H100 sweep left out (../../2026-12-06-h100/s88-sweep-full/: Llama-2-70B
#      down, the bench's last shape): s8 / e4m3 x u4b8 g128 / per-channel, M = 1..8192, with that sweep's flags and
#      baselines (cuBLAS fp16, cuBLASLt fp8, fp8-fast), through the bench's one-layer form `--shapes llama2-70b/down`;
#      bench capped at DOWN_LIMIT (default 170 s); $OUT/down.tar.gz.
#   2. the decode points in CUDA graphs on this card (session 60's s60-graph-decode command, today's kernels): f16 /
#      bf16 / s8 / e4m3 x u4b8 g128, M = 1..64, seed + Llama-2-70B, `--graph-batch 32`, cuBLAS fp16; the bench capped at
#      what is left of TOTAL (default 530 s); $OUT/graph.tar.gz.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s89-next/h100-rest.sh     (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS; TOTAL=${TOTAL:-530}
mkdir -p /tmp/down /tmp/graph
(cmake -S . -B build-sweep -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
   -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-sweep -j 16 --target mixgemm-bench) > /tmp/down/build.log 2>&1 ||
  { tail -20 /tmp/down/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"; gzip /tmp/down/build.log
cp "$0" /tmp/down/command.sh; cp "$0" /tmp/graph/command.sh
BENCH=build-sweep/tools/mixgemm-bench MIXGEMM_GIT_COMMIT=${MIXGEMM_GIT_COMMIT:-unknown} ITERS=20 WARMUP=3 SETTLE_MS=300 \
TIME_LIMIT=${DOWN_LIMIT:-170} SHAPES=llama2-70b/down TYPES=s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128,e4m3.u4b8.gch \
EXTRA="--baselines cublas_fp16,cublaslt_fp8,cublaslt_fp8_fast --summary-m 1,16,128,1024,8192" \
  bash scripts/run_bench_h200.sh /tmp/down > /tmp/down/run.log 2>&1
echo "down rc=$? at $((SECONDS - T0)) s"
python3 scripts/bar_status.py /tmp/down/bench.csv > /tmp/down/bars.md 2>&1
(cd /tmp/down && gzip -f bench.json bench.stderr.log 2>/dev/null; tar czf "$OUT/down.tar.gz" .)
BENCH=build-sweep/tools/mixgemm-bench MIXGEMM_GIT_COMMIT=${MIXGEMM_GIT_COMMIT:-unknown} ITERS=20 WARMUP=10 SETTLE_MS=300 \
TIME_LIMIT=$(( TOTAL - (SECONDS - T0) - 30 )) SHAPES=seed,llama2-70b TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 \
EXTRA="--m 1,2,4,8,16,32,64 --graph-batch 32 --baselines cublas_fp16 --summary-m 1,16,32,64" \
  bash scripts/run_bench_h200.sh /tmp/graph > /tmp/graph/run.log 2>&1
echo "graph rc=$? at $((SECONDS - T0)) s"
python3 scripts/decode_fit.py /tmp/graph/bench.csv 1,8,16 --t0 0.87 > /tmp/graph/decode_fit.txt 2>&1
(cd /tmp/graph && gzip -f bench.json bench.stderr.log 2>/dev/null; tar czf "$OUT/graph.tar.gz" .)
tail -4 /tmp/down/run.log; head -3 /tmp/down/bars.md; grep -A12 '^summary: ' /tmp/graph/bench.txt | head -14
