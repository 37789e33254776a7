#!/usr/bin/env bash
# Session 28, device call 2: ncu of the sm90 narrow tiles at M = 32 / 64 / 128 (seed shape), f16 and s8 g128.
CLOCKS=0 PROF_SM90_TYPES=f16.u4,s8.u4 PROF_SM90_SCHEDULES=256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk \
PROFILES="t256x64_m64:8192x21760:64:sm90_256x64_1x1x1_coop_splitk t256x64_m32:8192x21760:32:sm90_256x64_1x1x1_coop_splitk t256x64_m64_s8:8192x21760:64:sm90_256x64_1x1x1_coop_splitk:s8.u4b8.g128 t128x128_m128:8192x21760:128:sm90_128x128_1x1x1_coop_splitk" \
  bash scripts/profile_sm90_bench.sh
