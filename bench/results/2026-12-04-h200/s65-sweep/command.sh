#!/usr/bin/env bash
# Session 65: the standard sweep of the bars' six configs (s42-sweep/command.sh with .s65 for .s42) on main after
# sessions 59-65 (e4m3 pairs, TM 16 unroll, per-variant smallm kernels, exact tail box on every tile, the ranking refit); the same bench command as s42-sweep.
# Builds mixgemm-bench with the sm90 instances of those configs (f16.u4, bf16.u4, s8.u4, e4m3.u4).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
S=/tmp/sweep; rm -rf $S; mkdir -p $S
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
(cmake -S . -B build-sweep -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
   -DMIXGEMM_BUILD_TESTS=OFF && cmake --build build-sweep -j 16 --target mixgemm-bench) > $S/build.log 2>&1 || { tail -20 $S/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"; gzip $S/build.log
BENCH=build-sweep/tools/mixgemm-bench MIXGEMM_GIT_COMMIT=$(cat .s65/commit.txt) ITERS=20 WARMUP=3 TIME_LIMIT=${TIME_LIMIT:-$((540 - (SECONDS - T0) - 40))} SETTLE_MS=300 \
TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128,e4m3.u4b8.gch \
EXTRA="--baselines cublas_fp16,cublaslt_fp8,cublaslt_fp8_fast" \
  bash scripts/run_bench_h200.sh $S > $S/run.log 2>&1
echo "sweep rc=$?"
cp .s65/sweep.sh $S/command.sh; cp .s65/commit.txt $S/
python3 scripts/bar_status.py $S/bench.csv > $S/bars.md 2>&1; awk 'NF == 0 { exit } { print }' $S/bars.md
tar czf "$OUT/sweep.tar.gz" -C /tmp sweep
tail -3 $S/bench.stderr.log
