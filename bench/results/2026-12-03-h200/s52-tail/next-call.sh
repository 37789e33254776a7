#!/usr/bin/env bash
# Prepared in session 52 (not run: the session's device time was spent). Decides branch wip/sm90-tail-box (the
# 256-token tile's exact TMA box for a partial last token tile; README.md here) against main in one call:
# scripts/device_sm90_ab.sh builds both (sm90 f16 / bf16 / s8 / e4m3 x u4, every tile), runs the candidate's GPU
# suites (Sm90*, with Sm90.TailTokenTile, and GemmApi*) and memcheck / racecheck of *Sanitize*, then benches
# base cand cand base at the heuristic's picks: M around the 256-token tile (160 / 200 / 224: one partial tile;
# 448 / 1000: a partial second / fourth one; 256 / 512: controls without a tail), f16 / s8 / e4m3 x u4b8 g128,
# seed + Llama-2-70B, cuBLAS fp16 beside. ~7 min.
# From the repository root on main, with the branch's diff and main's HEAD in .sN (carry .sN):
#   mkdir -p .sN && git diff main wip/sm90-tail-box > .sN/tailbox.patch && git rev-parse HEAD > .sN/commit.txt
# (the branch sits on main; if main moved, rebase it first so that this diff is the change alone)
# Merge (git merge wip/sm90-tail-box) if the suites and sanitizers pass and no point without a tail is slower
# beyond the run's noise; the README's expectation: 0.75-0.9x at M = 160..224 on the 128 x 256 picks.
S=${S:-.s53}
export AB_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 AB_SHAPES=seed,llama2-70b AB_MS=160,200,224,256,448,512,1000 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_TEST_FILTER='Sm90*:GemmApi*:-Sm90Timing.*:*Sanitize*'
timeout 580 bash scripts/device_sm90_ab.sh $S/tailbox.patch 2>&1 | grep -v "^llama\|^seed"
