#!/usr/bin/env bash
# Prepared in session 34 (not run: the session's device time was spent). One device call decides the two prepared
# sm90 branches against main, in one run (scripts/device_sm90_multi.sh: base v1 v2 v2 v1 base, settled 150 ms per
# row), each candidate's tests and both sanitizers:
#   stagehalf.patch = `git diff main wip/sm90-stage-half -- src`: the two-part exchange stages only its own token half
#     (compile-time bounds; today it computes both halves and predicates the store). Expected ~1 us per exchange tile
#     at M = 129..256 on the 64-tile shapes (70B o / down, seed) and at M = 65..128 on 128 x 128.
#   fastdiv.patch = `git diff main wip/sm90-fastdiv -- src tests`: the unit decode by multiply-high divisors computed on
#     the host (the producer's path to its first load 328 -> 195 SASS instructions, no MUFU / CALL). Expected a few
#     tenths of a us per launch (s34-trace/fixed/: first loads issued 1.3-1.7 us after entry, ~1 us of it the
#     producer's decode and set-up), every sm90 launch.
# From the repository root on the device, with .sN/commit.txt = main's HEAD and both patches copied to .sN (carry .sN).
# ~7 min. Merge what is faster at its points and nowhere slower; then re-time #5's M = 256 points.
S=${S:-.s35}
export AB_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=128,192,256,512,2048 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128 AB_SETTLE_MS=150 \
  AB_TEST_FILTER='GemmApi.*:Sm90.*:-Sm90Timing.*' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.*'
timeout 580 bash scripts/device_sm90_multi.sh $S/stagehalf.patch $S/fastdiv.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
