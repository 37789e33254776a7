#!/usr/bin/env bash
# One device call that measures bar configs against their baselines in the same run (what
# sessions 22-23 wrote by hand as s22-bars/, s23-w4a16/, s23-w4a16-mid/):
#   usage (device): BARS_SM90_TYPES=f16.u4,bf16.u4 BARS_TYPES=f16.u4b8.g128,bf16.u4b8.g128 \
#     BARS_BASELINES=cublas_fp16,cublas_bf16 BARS_MS=256,512,1024 BARS_RUNS=1 \
#     bash scripts/device_bars.sh .sN/commit.txt   (carry .sN; commit.txt = the host's HEAD)
# Builds mixgemm-bench (sm90 instances $BARS_SM90_TYPES, no tests), then runs the bench
# $BARS_RUNS times in a row (each run with its baselines; rows settled 300 ms, 20 runs per row,
# every row verified, $BARS_TIME_LIMIT s per run) on $BARS_SHAPES, writes bench-<i>.csv and
# scripts/bar_status.py's bars-<i>.md per run, the MIXGEMM_PRINT_CONFIG=1 output of run 1 (each
# distinct line once), and everything as $OUT/bars.tar.gz. BARS_GRAPH=32 times every row (baselines too) as
# 32 back-to-back launches in one CUDA graph (mixgemm-bench --graph-batch): the decode bars as an engine's
# graph sees them, without the event-timed launch cost (docs/performance.md, "The weight stream's own time").
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: device_bars.sh COMMIT_FILE"; exit 2; }
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
L=/tmp/bars; rm -rf $L; mkdir -p $L
t0=$SECONDS
C=$(cat "$1")
(cmake -S . -B build-bars -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=${BARS_SM90_TYPES:?} -DMIXGEMM_BUILD_TESTS=OFF &&
 cmake --build build-bars -j 16 --target mixgemm-bench) > $L/build.log 2>&1 || { tail -20 $L/build.log; exit 1; }
echo "build $((SECONDS - t0)) s"
for ((i = 1; i <= ${BARS_RUNS:-1}; ++i)); do
  pc=/dev/null; [ $i = 1 ] && pc=$L/print-config.raw
  MIXGEMM_PRINT_CONFIG=1 timeout $((${BARS_TIME_LIMIT:-200} + 30)) ./build-bars/tools/mixgemm-bench \
    --shapes ${BARS_SHAPES:-seed,llama2-70b} --m ${BARS_MS:?} --types ${BARS_TYPES:?} --baselines ${BARS_BASELINES:?} \
    --iters 20 --warmup 3 --settle-ms 300 --time-limit ${BARS_TIME_LIMIT:-200} --verify --git-commit "$C" \
    ${BARS_GRAPH:+--graph-batch $BARS_GRAPH} \
    --csv $L/bench-$i.csv > $L/bench-$i.txt 2> $pc
  echo "bench $i rc=$? $((SECONDS - t0)) s"
  python3 scripts/bar_status.py $L/bench-$i.csv > $L/bars-$i.md 2>&1
  awk '/^\|/ { t = 1 } t && NF == 0 { exit } { print }' $L/bars-$i.md  # the card line and the summary table
done
[ -f $L/print-config.raw ] && awk '!seen[$0]++' $L/print-config.raw > $L/print-config.txt && rm $L/print-config.raw
gzip $L/build.log
tar czf "$OUT/bars.tar.gz" -C /tmp bars
