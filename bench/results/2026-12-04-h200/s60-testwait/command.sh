#!/usr/bin/env bash
# Prepared in session 59: the decode row loop's weight-row wait as an in-line spin (testwait.patch:
# ptx::mbar_spin_wait_parity, mbarrier.test_wait in a loop; main's try_wait loop is compiled as one try_wait
# plus a retry loop that ptxas moves to the kernel's end, so a warp whose row has not landed jumps there and back).
# Session 59 found the same row-loop SASS up to 15% slower at M = 4 / 8 at other addresses (s59-psbranch/). Does the
# in-line wait (a) keep or beat main's time, (b) make the time independent of placement? testwait_psnone /
# testwait_pspad move the loops as psnone / pspad did (their offsets: README.md). ABBA against main; f16 / bf16 / s8 /
# e4m3 g128, M = 1, 4, 8, 16, seed + Llama-2-70B + Llama-3-8B. No tests here (four builds with the test binary and
# three sanitized variants would pass the 600 s limit): if testwait is merged, run the full check on the merged tree
# (STAGES="build sass tests sanitize" scripts/device_check.sh). Copy this folder to the session's .sN/ (carried), set .sN/commit.txt to HEAD, check the patches apply,
# run: bash .sN/ab_testwait.sh
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b \
  AB_MS=1,4,8,16 AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=100
bash scripts/device_sm90_multi.sh "$D/testwait.patch" "$D/testwait_psnone.patch" "$D/testwait_pspad.patch"
