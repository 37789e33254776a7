#!/usr/bin/env bash
# Session 23 call 4: W4A16 u4b8 g128 (f16, bf16) against the #4 bars with main at commit.txt (the stmatrix
# epilogue of session 22 and the TMA-store copy-out of session 23 in): M = 256 .. 8192 on seed + Llama-2-70B,
# cuBLAS fp16 and bf16 in the same run.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
L=/tmp/s23w4a16; rm -rf $L; mkdir -p $L
t0=$SECONDS
(cmake -S . -B build-bars -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4 -DMIXGEMM_BUILD_TESTS=OFF &&
 cmake --build build-bars -j 16 --target mixgemm-bench) > $L/build.log 2>&1 || { tail -20 $L/build.log; exit 1; }
echo "build $((SECONDS - t0)) s"
C=$(cat .s23/commit.txt)
MIXGEMM_PRINT_CONFIG=1 timeout 230 ./build-bars/tools/mixgemm-bench --shapes seed,llama2-70b --m 256,512,1024,2048,4096,8192 \
  --types f16.u4b8.g128,bf16.u4b8.g128 --baselines cublas_fp16,cublas_bf16 --iters 20 --warmup 3 --settle-ms 300 --time-limit 210 \
  --verify --git-commit $C --csv $L/bench.csv > $L/bench.txt 2> $L/print-config.txt
echo "bench rc=$? $((SECONDS - t0)) s"
cp .s23/call4.sh $L/command.sh; gzip $L/build.log
python3 scripts/bar_status.py $L/bench.csv > $L/bars.md 2>&1; head -14 $L/bars.md
tar czf $OUT/w4a16.tar.gz -C /tmp s23w4a16
