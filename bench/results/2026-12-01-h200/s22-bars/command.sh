#!/usr/bin/env bash
# Session 22 call 7: W4A8 g128 (e4m3, s8) against the #5 bars after the stmatrix epilogue (main at commit.txt):
# M = 256 / 1024 / 2048 / 4096 / 8192 on seed + Llama-2-70B, cuBLAS fp16 and cuBLASLt fp8 in the same run.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
L=/tmp/s22bars; rm -rf $L; mkdir -p $L
t0=$SECONDS
(cmake -S . -B build-bars -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4,e4m3.u4 -DMIXGEMM_BUILD_TESTS=OFF &&
 cmake --build build-bars -j 16 --target mixgemm-bench) > $L/build.log 2>&1 || { tail -20 $L/build.log; exit 1; }
echo "build $((SECONDS - t0)) s"
C=$(cat .s22/commit.txt)
timeout 170 ./build-bars/tools/mixgemm-bench --shapes seed,llama2-70b --m 256,1024,2048,4096,8192 \
  --types e4m3.u4b8.g128,s8.u4b8.g128 --baselines cublas_fp16,cublaslt_fp8 --iters 20 --warmup 3 --settle-ms 300 --time-limit 140 \
  --verify --git-commit $C --csv $L/bench.csv > $L/bench.txt 2>&1
echo "bench rc=$? $((SECONDS - t0)) s"
cp .s22/call7.sh $L/command.sh; gzip $L/build.log
python3 scripts/bar_status.py $L/bench.csv > $L/bars.md 2>&1; head -12 $L/bars.md
tar czf $OUT/bars.tar.gz -C /tmp s22bars
