#!/usr/bin/env bash
# Session 30, device call 3, on main with the wide tile's arrive-first split merged (commit.txt):
# (1) the full check (build, SASS, every GPU suite, memcheck / racecheck of *Sanitize*);
# (2) A/B against the same tree with the merge reverted (storefirst.patch = main before it):
#     base storefirst storefirst base, M = 256 / 512 / 1024, 9 layers, f16 / s8 / e4m3 g128, s8 gch.
set -uo pipefail
C=$(cat .s30/commit.txt)
MIXGEMM_GIT_COMMIT=$C STAGES="build sass tests sanitize" timeout 300 bash scripts/device_check.sh > /tmp/check.txt 2>&1
echo "check rc=$? at $SECONDS s"; cat $OUT/summary.txt
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES=128x256_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk,128x64_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=256,512,1024 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128,s8.u4b8.gch AB_SETTLE_MS=0
timeout 260 bash scripts/device_sm90_multi.sh .s30/storefirst.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
echo "total $SECONDS s"
