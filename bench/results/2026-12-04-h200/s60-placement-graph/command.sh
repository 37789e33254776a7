#!/usr/bin/env bash
# Session 60, call 2: (A) session 59's prepared sm90 spin (testwait_sm90spin.patch: the sm90 consumers' stage
# waits and the smallm row wait as the in-line test_wait spin) against main, f16 / s8 g128, M = 24..256, 9 shapes;
# (B) where the decode placement effect starts: psnone.patch (session 59: the TM 8 row loops moved by dead code)
# against main with the schedule forced to smallm_t8_w8_o2_p0, M = 1..8, f16 / bf16 / e4m3 g128, seed + Llama-2-70B,
# in CUDA graphs (32 launches) and, as a second pass, event-timed at the heuristic's picks.
D=$(dirname "$0")
OUT0=${OUT:-$PWD/device-out}
t0=$SECONDS
( export OUT=$OUT0/a AB_SM90_TYPES=f16.u4,s8.u4 AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,32,64,128,256 \
    AB_TYPES=f16.u4b8.g128,s8.u4b8.g128
  bash scripts/device_sm90_multi.sh "$D/testwait_sm90spin.patch" > $OUT0/a.log 2>&1 )
echo "A done $((SECONDS - t0)) s"
( export OUT=$OUT0/b AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b \
    AB_MS=1,2,3,4,5,6,7,8 AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=100 \
    AB_BENCH_EXTRA="--schedule smallm_t8_w8_o2_p0 --graph-batch 32 --iters 40" AB_EVENT_TOO=1
  bash scripts/device_sm90_multi.sh "$D/psnone.patch" > $OUT0/b.log 2>&1 )
echo "B done $((SECONDS - t0)) s"
grep "geomean" $OUT0/a.log | grep -v " M= .*smallm" | head -30
echo ---- graph, forced t8_w8_o2
grep "geomean.*g128 " $OUT0/b.log | head -30
echo ---- event, heuristic
cat $OUT0/b/event-summary.txt 2>/dev/null | grep "geomean.*g128 " | head -30
