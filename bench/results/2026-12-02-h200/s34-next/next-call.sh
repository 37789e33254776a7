#!/usr/bin/env bash
# Prepared in session 34 (not run: the session's device time was spent). One device call decides branch
# wip/sm90-stage-half (the two-part exchange stages only its own token half; stagehalf.patch =
# `git diff main wip/sm90-stage-half -- src`). From the repository root on the device, with .sN/commit.txt = main's
# HEAD and .sN/stagehalf.patch = this folder's patch (carry .sN):
#   candidate's tests (every split / exchange path) and both sanitizers on the small cases, then base v1 v1 base at
#   M = 128 / 192 / 256 / 512 (the exchange runs at M = 129..256 on the 64-tile shapes: 70B o / down, seed; at
#   M = 65..128 on 128 x 128), f16 / s8 / e4m3 g128 and s8 per-channel, ~5 min.
# Expected: ~1 us less per exchange tile (the other half's conversion, scaling and packing: s34-trace/fixed/ stages
# half a 128 x 256 tile in ~2.0 us, s8), i.e. 70B o s8 M = 256 ~33.2 us instead of 34.2 (1.82 -> ~1.88x cuBLAS fp16;
# #5's bar 2.0x stays out of reach by this alone). Merge if the exchange points are faster and nothing else slower.
S=${S:-.s35}
export AB_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=128,192,256,512 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128 AB_SETTLE_MS=150 \
  AB_TEST_FILTER='GemmApi.*:Sm90.*:-Sm90Timing.*' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.*'
timeout 560 bash scripts/device_sm90_multi.sh $S/stagehalf.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
