#!/usr/bin/env bash
# Session 59 call 5 (diagnostic): call 4 (s59-deferab/) put the partial-sum branch's effect on the plain decode
# kernels in the handoff to the deferred reduction grid (in-kernel reduction: psnone f16 0.996-1.006, s8
# 0.974-0.982; deferred: f16 1.012-1.069, s8 0.979-0.997). Hypothesis: the reduction grid's CTAs (128 threads,
# ~46 registers, launched at the kernel's start as its programmatic dependents) crowd onto the first SMs the
# kernel's CTAs leave (~5-10 per SM), and how the kernel's CTAs end decides how crowded. redspread.patch sizes the
# reduction CTAs' dynamic shared memory so that at most ceil(CTAs / SMs) fit on one SM. Variants: psnone,
# redspread, both; ABBA against main; f16 / s8 / e4m3 g128, M = 1, 4, 8, 16, seed + Llama-2-70B + Llama-3-8B.
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b \
  AB_MS=1,4,8,16 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=100
bash scripts/device_sm90_multi.sh "$D/psnone.patch" "$D/redspread.patch" "$D/psnone_redspread.patch"
