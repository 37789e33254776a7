#!/usr/bin/env bash
# Session 36 call 3: the publisher warp (pub.patch, branch wip/sm90-publisher) against main, one run (base v1 v1 base):
# a non-last part of a split / streamed tile hands its fence and publish to warp 3 of the producer warpgroup instead of
# consumer thread 0 holding its warpgroup for the fence (~3.7 us mid-run on 70B qkv s8 at M = 256, stream-K); its
# tests and both sanitizers; then, time permitting, trace builds of both and the 70B timeline at M = 256.
S=${S:-.s36}
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
T0=$SECONDS
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b AB_MS=128,256,512 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=100 \
  AB_TEST_FILTER='GemmApi.*:Sm90.*:-Sm90Timing.*' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.*'
timeout 450 bash scripts/device_sm90_multi.sh $S/pub.patch 2>&1 | grep -v "^bench "
python3 scripts/ab_multi_summary.py /tmp/multi base pub > $OUT/summary.txt 2>&1
echo "A/B done at $((SECONDS - T0)) s"
if [ $((SECONDS - T0)) -lt 400 ]; then
  for v in 0 1; do
    ( cmake -S /tmp/v$v -B /tmp/v$v/build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4 \
        -DMIXGEMM_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_TRACE && \
      cmake --build /tmp/v$v/build-tr -j 16 --target mixgemm-bench ) > /tmp/multi/build-tr-$v.log 2>&1 &
  done
  wait
  for v in 0 1; do
    MIXGEMM_SM90_TRACE_FILE=/tmp/multi/trace-v$v.txt timeout 60 /tmp/v$v/build-tr/tools/mixgemm-bench --shapes llama2-70b \
      --m 256 --types s8.u4b8.g128 --no-baselines --iters 20 --warmup 10 --settle-ms 0 --summary-m none > /dev/null 2>&1
    python3 scripts/sm90_trace_summary.py /tmp/multi/trace-v$v.txt > /tmp/multi/trace-v$v-summary.txt 2>&1
    echo "== v$v"; grep -E "launch|med" /tmp/multi/trace-v$v-summary.txt | cut -c1-40,80-240
  done
  gzip -f /tmp/multi/trace-v*.txt
  echo "traces done at $((SECONDS - T0)) s"
fi
tar czf $OUT/multi.tar.gz -C /tmp multi
head -40 $OUT/summary.txt
