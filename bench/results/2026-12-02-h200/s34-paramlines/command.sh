#!/usr/bin/env bash
# Session 34 call 3: the parameter-line touch (.s34/paramlines.patch: warp 0 loads one word of every 32 bytes of the
# kernel parameters at a CTA's entry, one instruction, so that the constant-cache misses overlap) in both kernel
# families, against main (.s34/commit.txt), in one run: scripts/device_sm90_multi.sh (base v1 v1 base, settled
# 150 ms per row, f16 / s8 / e4m3 u4b8 g128, seed + Llama-2-70B + Llama-3-8B, M = 1 / 8 / 128 / 256 / 512), the
# candidate's GPU suites and both sanitizers on the small cases; then the candidate's trace build at M = 256
# (prologue marks of call 2).
S=.s34
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=1,8,128,256,512 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=150 \
  AB_TEST_FILTER='GemmApi.*:Sm90.TwoPartExchange*:Sm90.StreamK*:Sm90.TailSplit*:Smallm.RealShape:Smallm.RingWrap:Smallm.StreamShapes:Smallm.W4A16_F16:Smallm.W4A8_S8' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.StreamKSmall:Sm90Sanitize.ExchangeSmall:SmallmSanitize.*:GemmSanitize.*'
timeout 470 bash scripts/device_sm90_multi.sh $S/paramlines.patch 2>&1 | grep -v "^bench "
OUT=${OUT:-$PWD/device-out}
# the candidate's timeline (v1's tree, a trace build of the bench)
T0=$SECONDS
cmake -S /tmp/v1 -B /tmp/v1/build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4 -DMIXGEMM_BUILD_TESTS=OFF \
  -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_TRACE > /tmp/trb.log 2>&1 && cmake --build /tmp/v1/build-tr -j 16 --target mixgemm-bench >> /tmp/trb.log 2>&1 \
  && MIXGEMM_SM90_TRACE_FILE=/tmp/trace-v1.txt timeout 60 /tmp/v1/build-tr/tools/mixgemm-bench --shapes llama2-70b --tp 1 --m 256 \
  --types s8.u4b8.g128 --no-baselines --iters 20 --warmup 10 --settle-ms 0 --summary-m none > /dev/null 2>&1
python3 scripts/sm90_trace_summary.py /tmp/trace-v1.txt > $OUT/trace-v1-summary.txt 2>&1
cut -c1-60,71- $OUT/trace-v1-summary.txt | sed 's/sm90_\([0-9x]*\)_1x1x1_coop_splitk/\1/'
echo "trace $((SECONDS - T0)) s"
