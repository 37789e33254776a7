#!/usr/bin/env bash
# Prepared in session 52 (not run), optional, after next-call.sh: is the exact box worth having on the 128 x 128 tile
# too, written as on the branch (the box switched at a per-unit block index)? Session 52's two other forms gained
# 0.86-0.89x at M = 160 there but cost 2-13% at M = 256 without a tail (README.md). scripts/device_sm90_multi.sh
# times main, the branch (tailbox.patch: 256-token tile only) and tailbox128.patch (the branch with
# kTailBox = kTileT >= 128) at the heuristic's picks, base v1 v2 v2 v1 base, no tests (a winner needs its own check);
# and shift.patch, a diagnostic: main with a never-taken branch in the prologue that moves every block loop after it by
# 48 bytes, the loops' SASS unchanged (checked with scripts/local_sass.sh on s8 128 x 128): if it also makes 128 x 128
# slower at M = 256, session 52's unexplained 2-13% there was code placement (call 2 / 3 had moved those loops by 80
# bytes: one of main's s8 block loops, 167 instructions, starts 128-byte aligned, theirs did not), not the tail logic.
# From the repository root on main, before the branch is merged (carry .sN):
#   mkdir -p .sN && git diff main wip/sm90-tail-box > .sN/tailbox.patch && git rev-parse HEAD > .sN/commit.txt
#   cp bench/results/2026-12-03-h200/s52-tail/tailbox128.patch bench/results/2026-12-03-h200/s52-tail/shift.patch .sN/
# ~8 min.
S=${S:-.s53}
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SHAPES=seed,llama2-70b AB_MS=128,160,200,256,448,512 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0
timeout 580 bash scripts/device_sm90_multi.sh $S/tailbox.patch $S/tailbox128.patch $S/shift.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
