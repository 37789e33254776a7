#!/usr/bin/env bash
# Session 82, prepared (the s81-next queue's item 2): the bars' full sweep, M = 1..8192 on the seed shape and the
# Llama-2-70B layers, the six bar configs, cuBLAS fp16 / cuBLASLt fp8 in the same run: s65-sweep/command.sh's bench
# command on main with sessions 66-81's tiles and rules. Reuses build-sweep/ when a warm machine has it (h200-rest.sh
# builds the same target), so ~7 min then, ~9 with the build.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s81-next/sweep-full.sh     (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
S=/tmp/sweep-full; rm -rf $S; mkdir -p $S
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
if [ ! -x build-sweep/tools/mixgemm-bench ]; then
  (cmake -S . -B build-sweep -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
     -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-sweep -j 16 --target mixgemm-bench) \
    > $S/build.log 2>&1 || { tail -20 $S/build.log; exit 2; }
  gzip $S/build.log
fi
echo "build-sweep ready at $((SECONDS - T0)) s"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $S/gpu.txt
BENCH=build-sweep/tools/mixgemm-bench MIXGEMM_GIT_COMMIT=${MIXGEMM_GIT_COMMIT:-unknown} ITERS=20 WARMUP=3 \
TIME_LIMIT=${TIME_LIMIT:-$((560 - (SECONDS - T0) - 50))} SETTLE_MS=300 \
TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128,e4m3.u4b8.gch \
EXTRA="--baselines cublas_fp16,cublaslt_fp8,cublaslt_fp8_fast --summary-m 1,16,128,1024,8192" \
  bash scripts/run_bench_h200.sh $S > $S/run.log 2>&1
echo "sweep rc=$? at $((SECONDS - T0)) s"
cp "$0" $S/command.sh
python3 scripts/bar_status.py $S/bench.csv > $S/bars.md 2>&1
cd $S && tar czf "$OUT/sweep-full.tar.gz" . && cd - > /dev/null
awk 'NF == 0 { exit } { print }' $S/bars.md
tail -3 $S/run.log
