#!/usr/bin/env bash
# Session 55 call 6: ncu of the 128 x 256 tile at M = 256 (seed shape and Llama-2-70B gate_up,
# f16 x u4b8 g128): how close the L2 and shared-memory traffic are to their limits, after call 2
# found half the activation loads 0.95x the time there.
set -u
export PATH=/usr/local/cuda/bin:$PATH
PROFILES="t128x256_m256_seed:8192x21760:256:sm90_128x256_1x1x1_coop_splitk t128x256_m256_gateup:57344x8192:256:sm90_128x256_1x1x1_coop_splitk" \
  CLOCKS=0 PROF_SM90_SCHEDULES=128x256_1x1x1_coop_splitk OUT=$OUT bash scripts/profile_sm90_bench.sh > $OUT/summary.txt 2>&1
sed -n '/== summary/,$p' $OUT/summary.txt
for f in /tmp/mixgemm-prof/details_*.txt; do echo "-- $f"; grep -E "L1/TEX Hit|L2 Hit|Shared|Mem Busy|Max Bandwidth|Mem Pipes|L2 Cache Throughput|Memory Throughput|DRAM Throughput" "$f" | head -14; done
