#!/usr/bin/env bash
# Session 55, call 1: (a) mixgemm-mma-rate's block loop with one m64 atom per warpgroup at 4
# warpgroups per SM against two atoms at 2 (tools/ubench/mma_rate.cu, built on the host at the
# commit in commit.txt plus that file's session-55 cases); (b) the 256 x 64 tile with four consumer
# warpgroups (cwg4.patch) against main: Sm90 suites on the variant, ABBA bench at M = 24..64.
set -u
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,clocks.sm,power.draw,driver_version --format=csv > $OUT/gpu.txt
./.s55/mixgemm-mma-rate --iters 4096 2>&1 | grep -E "^#|instruction|blk" > $OUT/mma_rate_blk.txt
cat $OUT/mma_rate_blk.txt
AB_SM90_TYPES=f16.u4,s8.u4 AB_SHAPES=seed,llama2-70b AB_MS=24,32,48,64 \
AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,f16.u4b8.gch \
AB_TEST_FILTER='Sm90.W4W8A16_F16:Sm90.W4A8_S8:Sm90.RealShapes:Sm90.TailSplit:Sm90.StreamK' \
  bash scripts/device_sm90_multi.sh .s55/cwg4.patch 2>&1 | tee $OUT/multi-summary.txt | tail -60
