#!/usr/bin/env bash
# Session 60, call 3: the wide tile (128 x 256) with the sm90 stage waits as the in-line spin, again. Call 2 had it at
# 0.86-0.93x the time on the long f16 points (70B gate_up / down, seed at M = 256), which swing 370-465 us between runs
# of one build in earlier sessions. Two identical copies of testwait_sm90spin.patch (spinA, spinB) so that the
# variant is timed four times: base spinA spinB spinB spinA base. f16 / s8 g128, only 128 x 256 built, M = 256 / 512 /
# 1024, seed + Llama-2-70B, --iters 50.
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES=128x256_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b \
  AB_MS=256,512,1024 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_BENCH_EXTRA="--iters 50"
bash scripts/device_sm90_multi.sh "$D/spinA.patch" "$D/spinB.patch" 2>&1 | grep -v "^  " | grep -E "geomean|rc=|done|SERIAL" | head -40
