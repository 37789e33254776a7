#!/usr/bin/env bash
# Session 56 call 5: the narrow tiles' split-K partials clipped to the token columns below M (.s56/jv.patch: stores,
# last-arriver loads and exchange halves skip the columns of TMA's zero fill) against main, ABBA, f16 / s8 u4b8 g128 at
# M = 24, 32, 48, 96 (partial last token tiles) and 64, 128 (controls, nothing clipped) on seed + Llama-2-70B +
# Llama-3-8B (heuristic picks), with the Sm90 / GemmApi GPU tests and memcheck / racecheck of the Sm90 sanitizer cases.
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,32,48,64,96,128 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_TEST_FILTER='Sm90.*:GemmApi.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.*'
bash scripts/device_sm90_multi.sh .s56/jv.patch
