#!/usr/bin/env bash
# Session-3 third device call: Python GPU tests (fixed), where smallm loses time on small
# shapes (Llama-3-8B layers and a K sweep, every schedule, M <= 32), and the W4A8 sweep
# of the merged sm90 instances against cuBLAS / cuBLASLt.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
R=/tmp/r3; rm -rf $R; mkdir -p $R
{ cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON &&
  cmake --build build -j "$(nproc)"; } > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build $((SECONDS-T0)) s"
PYTHONPATH=$PWD/build/python timeout 120 python3 -m pytest -q -p no:cacheprovider tests/python > $R/pytest.log 2>&1
echo "pytest rc=$? $(tail -1 $R/pytest.log)"
B=build/tools/mixgemm-bench
C=$(git rev-parse --short HEAD 2>/dev/null || echo "${MIXGEMM_GIT_COMMIT:-unknown}")
$B --shapes llama3-8b --m 1,8,16,32 --types f16.u4b8.g128 --all-schedules --iters 30 --warmup 5 \
  --baselines cublas_fp16 --csv $R/llama3-8b-schedules.csv --json $R/llama3-8b-schedules.json --summary-m none --quiet \
  > $R/llama3-8b-schedules.txt 2>&1
echo "llama3 schedules rc=$? $((SECONDS-T0)) s"
$B --shape 8192x512 --shape 8192x2048 --shape 8192x8192 --shape 8192x32768 --m 1 --types f16.u4b8.g128 --all-schedules \
  --iters 30 --warmup 5 --baselines cublas_fp16 --csv $R/ksweep.csv --json $R/ksweep.json --summary-m none --quiet \
  > $R/ksweep.txt 2>&1
echo "ksweep rc=$? $((SECONDS-T0)) s"
BENCH=$B TYPES=s8.u4b8.g128,e4m3.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.gch,f16.u4b8.g128 ITERS=50 TIME_LIMIT=200 \
  bash scripts/run_bench_h200.sh $R/w4a8 > $R/w4a8.log 2>&1
echo "w4a8 rc=$? $((SECONDS-T0)) s"
tar czf $OUT/round3.tar.gz -C /tmp r3
tail -45 $R/w4a8/bench.txt
