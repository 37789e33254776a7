#!/usr/bin/env bash
# Session 34 call 5: the epilogue inputs prefetched into L1 before each unit's mainloop (.s34/epiprefetch.patch:
# token scales, channel scales, bias of the unit's tile, one line per lane of the first consumer warp) against main
# (.s34/commit.txt): scripts/device_sm90_multi.sh (base v1 v1 base, settled 150 ms per row, f16 / s8 / e4m3 u4b8 g128
# and s8 per-channel, seed + Llama-2-70B, M = 128 / 256 / 512 / 2048), the candidate's GPU tests and sanitizers on
# the small cases (f16.u4, s8.u4, e4m3.u4 instances: the row-split test skips bf16 with a note); then the
# candidate's timeline (trace build, s8 g128, Llama-2-70B at M = 256).
S=.s34
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b AB_MS=128,256,512,2048 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128 AB_SETTLE_MS=150 \
  AB_TEST_FILTER='GemmApi.*:Sm90.TwoPartExchange*:Sm90.StreamK*:Sm90.TailSplit*' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.StreamKSmall:Sm90Sanitize.ExchangeSmall:Sm90Sanitize.TypeConfigsSmall'
timeout 420 bash scripts/device_sm90_multi.sh $S/epiprefetch.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
OUT=${OUT:-$PWD/device-out}
T0=$SECONDS
cmake -S /tmp/v1 -B /tmp/v1/build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4 -DMIXGEMM_BUILD_TESTS=OFF \
  -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_TRACE > /tmp/trb.log 2>&1 && cmake --build /tmp/v1/build-tr -j 16 --target mixgemm-bench >> /tmp/trb.log 2>&1 \
  && MIXGEMM_SM90_TRACE_FILE=/tmp/trace-v1.txt timeout 60 /tmp/v1/build-tr/tools/mixgemm-bench --shapes llama2-70b --tp 1 --m 256 \
  --types s8.u4b8.g128 --no-baselines --iters 20 --warmup 10 --settle-ms 0 --summary-m none > /dev/null 2>&1
python3 scripts/sm90_trace_summary.py /tmp/trace-v1.txt > $OUT/trace-v1-summary.txt 2>&1
cut -c1-60,71- $OUT/trace-v1-summary.txt | sed 's/sm90_\([0-9x]*\)_1x1x1_coop_splitk/\1/'
echo "trace $((SECONDS - T0)) s"
