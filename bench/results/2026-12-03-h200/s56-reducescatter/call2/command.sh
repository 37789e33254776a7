#!/usr/bin/env bash
# Session 56 call 2: reduce-scatter for the narrow tiles' split-K tiles (.s56/rs.patch) against main, ABBA,
# f16 / s8 u4b8 g128 at M = 32..256 on seed + Llama-2-70B (heuristic picks), with the Sm90 / GemmApi GPU tests and
# memcheck / racecheck of the Sm90 sanitizer cases on the variant.
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SHAPES=seed,llama2-70b AB_MS=32,64,128,192,256 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_TEST_FILTER='Sm90.*:GemmApi.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.*'
bash scripts/device_sm90_multi.sh .s56/rs.patch
