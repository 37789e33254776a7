#!/usr/bin/env bash
# Session 54 call 4: session 33's row split constants (s33rule.patch: 6 us under a 0.95 margin) against main's
# (10 us, no margin) in one run, base v1 v1 base, at the heuristic's plans (row split on), on call 2's held-out grid.
S=${S:-.s54}
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SHAPES=llama3-405b \
  AB_MS=272,336,400,464,528,600,672,736,832,960,1200,1500,1800,2200,2700,3300 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0 \
  AB_BENCH_EXTRA="--tp 8 --shape 15360x5120 --shape 5120x5120 --shape 27648x5120 --shape 5120x13824 --shape 37888x3584 --shape 3584x18944 --shape 59136x8192 --shape 8192x29568"
timeout 560 bash scripts/device_sm90_multi.sh $S/s33rule.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed\|^custom" | tail -40
