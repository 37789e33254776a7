#!/usr/bin/env bash
# Session 22 call 8: the 128 x 256 timeline again, after the stmatrix epilogue (main) (diagnostic build -DMIXGEMM_SM90_TRACE,
# branch wip/sm90-trace): where the ~9 us beside the mainloop go (call 4: s22-m256/).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
L=/tmp/s22trace2; rm -rf $L; mkdir -p $L
t0=$SECONDS
(cmake -S . -B build-trace -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4,f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x256_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_TRACE &&
 cmake --build build-trace -j 16 --target mixgemm-bench) > $L/build.log 2>&1 || { tail -20 $L/build.log; exit 1; }
echo "build $((SECONDS - t0)) s"
B=./build-trace/tools/mixgemm-bench
MIXGEMM_SM90_TRACE_FILE=$L/trace.txt $B --shape 16384x4096 --shape 16384x8192 --shape 8192x8192 --shape 8192x4096 --shape 32768x4096 \
  --m 256 --types s8.u4b8.g128,f16.u4b8.g128 --schedule sm90_128x256_1x1x1_coop_splitk \
  --no-baselines --iters 12 --warmup 3 --settle-ms 0 --csv $L/bench.csv > $L/bench.txt 2>&1
echo "bench rc=$? $((SECONDS - t0)) s"
cp .s22/call8.sh $L/command.sh
python3 scripts/sm90_trace_summary.py $L/trace.txt | tee $L/summary.txt
gzip $L/trace.txt
tar czf $OUT/trace.tar.gz -C /tmp s22trace2
echo "total $((SECONDS - t0)) s"
