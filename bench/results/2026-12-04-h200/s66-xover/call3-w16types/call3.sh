#!/usr/bin/env bash
# Session 66 call 3. (1) The crossover priced with sm90's ranking model (this tree, since 93f1d01) against the old
# rule (oldxover.patch: kModelA16 for every type), base v1 v1 base, heuristic plans, on the types call 2 did not time:
# W8A16 (f16 x u8b128 g128), bf16 x u4b8 g128, f16 x u4 (zero points) g128; the narrow-N layers where it changes
# picks, M = 17..32; event-timed, then CUDA graphs of 32 launches (pass "graph").
# (2) Every sm90 tile and smallm schedule for W8A16 (f16 x u8b128 g128) on the 13 layers of session 65's retime,
# event-timed at M = 24..512 and in CUDA graphs at M = 24..128: is kRankA16 (fitted on u4b8) right for 8-bit weights?
S=${S:-.s66}
SH="--shape 768x4096 --shape 1536x4096 --shape 1280x8192 --shape 1152x3584 --shape 2304x16384"
export AB_SM90_TYPES=f16.u8,bf16.u4,f16.u4 AB_SHAPES=none AB_MS=17,20,24,28,32 \
  AB_TYPES=f16.u8b128.g128,bf16.u4b8.g128,f16.u4.g128 AB_SETTLE_MS=0 AB_BENCH_EXTRA="$SH" \
  AB_PASSES="graph:$SH --graph-batch 32 --iters 40"
timeout 250 bash scripts/device_sm90_multi.sh $S/oldxover.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed\|^custom" | tail -35
ALLSCHED_SM90_TYPES=f16.u8 ALLSCHED_SM90_SCHEDULES=all ALLSCHED_TYPES=f16.u8b128.g128 \
  ALLSCHED_SHAPES=llama3-8b,llama2-7b,llama2-70b,seed ALLSCHED_EVENT=1 \
  ALLSCHED_EVENT_MS=24,48,64,96,128,160,256,384,512 ALLSCHED_MS=24,32,48,64,96,128 \
  ALLSCHED_TIMEOUT=140 timeout 330 bash scripts/device_allsched.sh w8all 2>&1 | tail -5
ls -la $OUT
