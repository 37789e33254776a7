#!/usr/bin/env bash
# Session 58 call 5 (diagnostic): s58-olddecode found session 42's smallm kernels 4% faster on s8 g128 decode and
# 3-9% slower on f16 g128 at M = 2..8 (Llama-2-70B o / qkv, seed), the same schedules, in one run. The only change to
# smallm_gemm.cuh since then is session 48's partial-sum branch in finish_segment (the TM 8 kernels 25% more SASS:
# one copy per scale-mode variant). psnone.patch removes that branch (the plain kernels as in session 42, the
# partial-sum form broken: diagnostic only): does it reproduce the old kernels' times?
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b AB_MS=1,4,8 \
  AB_TYPES=s8.u4b8.g128,f16.u4b8.g128
bash scripts/device_sm90_multi.sh .s58/psnone.patch
