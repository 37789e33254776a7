#!/usr/bin/env bash
# Session 57 call 2: 128-k stages on the narrow sm90 tiles (kBlockIssue, not e4m3): two 64-k blocks per stage, one
# full wait and one release per two blocks (.s57/pair.patch), and the same with the second block's shared loads issued
# before the wgmma wait (.s57/pairearly.patch), against main, ABBA, f16 / s8 u4b8 g128 at M = 24..128 (the narrow
# tiles' range) and 256 (control) on seed + Llama-2-70B + Llama-3-8B (heuristic picks), with the Sm90 / GemmApi tests.
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,32,64,96,128,256 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_TEST_FILTER='Sm90.*:GemmApi.*' AB_SANITIZE=0
bash scripts/device_sm90_multi.sh .s57/pair.patch .s57/pairearly.patch
