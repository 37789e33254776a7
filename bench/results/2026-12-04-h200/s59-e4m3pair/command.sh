#!/usr/bin/env bash
# Prepared in session 58 for the next session's device time: the paired stages for e4m3 (e4m3pair.patch: the
# narrow tiles' kPair for e4m3 too; the table warps build both blocks' tables of a stage before they arrive on its
# `tables` barrier) against main, ABBA, e4m3 g128 (tables) and per-channel (no tables), M = 24..128 (the narrow
# tiles) and 256 (control), seed + Llama-2-70B + Llama-3-8B, with the Sm90 / GemmApi suites and memcheck /
# racecheck (the table warps' new loop) on the variant. Copy this folder to the session's .sN/ (carried), set
# .sN/commit.txt to the HEAD it runs on, and run: bash .sN/ab_e4m3pair.sh
D=$(dirname "$0")
export AB_SM90_TYPES=e4m3.u4 AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,32,64,96,128,256 \
  AB_TYPES=e4m3.u4b8.g128,e4m3.u4b8.gch AB_TEST_FILTER='Sm90.*:GemmApi.*' AB_SANITIZE=1
bash scripts/device_sm90_multi.sh "$D/e4m3pair.patch"
