#!/usr/bin/env bash
# Session 51, call 3: ncu (scripts/profile_smallm.sh) of the TM 16 decode kernel against TM 8, where
# call 2 found IST-DASLab's Marlin faster than mixgemm (M = 16: Llama-2-70B o 0.81x, qkv 0.90x in graphs):
# 8192 x 8192 (shape 2) t16_w8_o2 at M = 16 and 1, t8_w8_o2 at M = 8; the seed (shape 0) t16_w8_o2 at M = 16.
# GPU test binary built on the dev machine (a31303d's kernels; restricted sm90 set f16.u4 256x64).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
BUILD=$PWD/.s51/prof CASES="2:16:t16_w8_o2_p0 2:8:t8_w8_o2_p0 2:1:t16_w8_o2_p0 0:16:t16_w8_o2_p0" \
  bash scripts/profile_smallm.sh > $OUT/summary.txt 2>&1
echo "rc=$?"
tail -60 $OUT/summary.txt
