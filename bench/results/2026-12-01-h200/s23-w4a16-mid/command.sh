#!/usr/bin/env bash
# Session 23 call 5: W4A16 u4b8 g128 (f16, bf16) at M = 256 / 512 again, twice in a row (two bench invocations),
# with cuBLAS fp16 / bf16 each time: how much of call 4's M = 256 / 512 ratios is the baseline's run-to-run spread.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
L=/tmp/s23mid; rm -rf $L; mkdir -p $L
t0=$SECONDS
(cmake -S . -B build-bars -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4 -DMIXGEMM_BUILD_TESTS=OFF &&
 cmake --build build-bars -j 16 --target mixgemm-bench) > $L/build.log 2>&1 || { tail -20 $L/build.log; exit 1; }
echo "build $((SECONDS - t0)) s"
C=$(cat .s23/commit.txt)
for i in 1 2; do
  timeout 80 ./build-bars/tools/mixgemm-bench --shapes seed,llama2-70b --m 256,512 \
    --types f16.u4b8.g128,bf16.u4b8.g128 --baselines cublas_fp16,cublas_bf16 --iters 20 --warmup 3 --settle-ms 300 --time-limit 70 \
    --verify --git-commit $C --csv $L/bench-$i.csv > $L/bench-$i.txt 2>&1
  echo "bench $i rc=$? $((SECONDS - t0)) s"
  python3 scripts/bar_status.py $L/bench-$i.csv > $L/bars-$i.md 2>&1; head -6 $L/bars-$i.md | tail -4
done
cp .s23/call5.sh $L/command.sh; gzip $L/build.log
tar czf $OUT/mid.tar.gz -C /tmp s23mid
