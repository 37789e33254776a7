#!/usr/bin/env bash
# Session 109: the H200 queue's item 3, session 86's full event-timed bars sweep (s86-sweep-full/command.sh: every bar
# config, M = 1, 2, 4, ..., 8192, seed + Llama-2-70B, cuBLAS fp16 / cuBLASLt fp8 in the same run, cold L2, --verify),
# with no device build: the bench comes from the carried `.s108/bench.xz` (Release, all 34 sm90 instances, built on
# the CPU machine; commit in .s108/commit.txt), so the whole call is the sweep's time. Only on an H200.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s109-next/sweep109.sh   (repo root; carry .s108; ~9 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; T0=$SECONDS
S=/tmp/sweep-full; rm -rf $S; mkdir -p $S
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu"
case "$gpu" in *H200*) ;; *) echo "not an H200: nothing run"; exit 0 ;; esac
B=/tmp/s109-bench/mixgemm-bench; mkdir -p "$(dirname $B)"
xz -dc .s108/bench.xz > $B && chmod +x $B || { echo "no .s108/bench.xz: carry .s108"; exit 1; }
echo "${MIXGEMM_GIT_COMMIT:-unknown} (bench binary: $(cat .s108/commit.txt 2>/dev/null))" > $S/commit.txt
BENCH=$B MIXGEMM_GIT_COMMIT=${MIXGEMM_GIT_COMMIT:-unknown} ITERS=20 WARMUP=3 \
TIME_LIMIT=${TIME_LIMIT:-$((545 - (SECONDS - T0) - 40))} SETTLE_MS=300 \
TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128,e4m3.u4b8.gch \
EXTRA="--baselines cublas_fp16,cublaslt_fp8,cublaslt_fp8_fast --summary-m 1,16,128,1024,8192" \
  bash scripts/run_bench_h200.sh $S > $S/run.log 2>&1
echo "sweep rc=$? at $((SECONDS - T0)) s"
cp "$0" $S/command.sh
python3 scripts/bar_status.py $S/bench.csv > $S/bars.md 2>&1
cd $S && tar czf "$OUT/sweep-full.tar.gz" . && cd - > /dev/null
awk 'NF == 0 { exit } { print }' $S/bars.md
echo "total $((SECONDS - T0)) s"
