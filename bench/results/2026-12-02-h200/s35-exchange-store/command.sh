#!/usr/bin/env bash
# Session 35 call 2: the exchange's store-first (storefirst.patch) and the wide tile's bulk-copy partials on top of it
# (bulk.patch = store-first + bulk) against main, one run (base v1 v2 v2 v1 base), each candidate's tests and both
# sanitizers; then a trace build of the bulk candidate at M = 256 (70B layers, s8 g128), a timeline to set beside s34's.
S=${S:-.s35}
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
T0=$SECONDS
# the trace build of v2 in the background (its own tree; the multi script copies this tree to /tmp/v*)
( rm -rf /tmp/tr && mkdir -p /tmp/tr && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/tr && cd /tmp/tr && patch -p1 < $S/bulk.patch > /dev/null \
  && cmake -S . -B build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4 -DMIXGEMM_BUILD_TESTS=OFF \
     -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_TRACE > /tmp/trb.log 2>&1 && nice cmake --build build-tr -j 4 --target mixgemm-bench >> /tmp/trb.log 2>&1; echo "trace build rc=$?" >> /tmp/trb.log ) &
export AB_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b AB_MS=128,192,256,512,2048 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128 AB_SETTLE_MS=150 \
  AB_TEST_FILTER='GemmApi.*:Sm90.*:-Sm90Timing.*' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.*'
timeout 470 bash scripts/device_sm90_multi.sh $S/storefirst.patch $S/bulk.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
wait
tail -2 /tmp/trb.log
if [ -x /tmp/tr/build-tr/tools/mixgemm-bench ]; then
  MIXGEMM_SM90_TRACE_FILE=/tmp/trace-bulk.txt timeout 60 /tmp/tr/build-tr/tools/mixgemm-bench --shapes llama2-70b --tp 1 --m 256 \
    --types s8.u4b8.g128 --no-baselines --iters 20 --warmup 10 --settle-ms 0 --summary-m none > /dev/null 2>&1
  python3 scripts/sm90_trace_summary.py /tmp/trace-bulk.txt > $OUT/trace-bulk-summary.txt 2>&1
  gzip -c /tmp/trace-bulk.txt > $OUT/trace-bulk.txt.gz
  cut -c1-60,71- $OUT/trace-bulk-summary.txt | sed 's/sm90_\([0-9x]*\)_1x1x1_coop_splitk/\1/'
fi
cp /tmp/trb.log $OUT/trace-build.log
echo "total $((SECONDS - T0)) s"
