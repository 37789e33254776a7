#!/usr/bin/env bash
# Session 55 call 4: ncu of sm90_256x64 at M = 64 (seed shape, f16 x u4b8 g128), main and the dcvt
# diagnostic (no int4 conversion, no scale multiply: call 2's patch), to see what the per-block time
# is made of when the conversion is gone. scripts/profile_sm90_bench.sh, one kernel each, real clocks.
set -u
export PATH=/usr/local/cuda/bin:$PATH
P="t256x64_m64:8192x21760:64:sm90_256x64_1x1x1_coop_splitk"
PROFILES="$P" CLOCKS=0 PROF_SM90_SCHEDULES=256x64_1x1x1_coop_splitk OUT=/tmp/o-base \
  bash scripts/profile_sm90_bench.sh > /tmp/base.txt 2>&1
cp /tmp/o-base/prof.tar.gz $OUT/prof-base.tar.gz; cp /tmp/base.txt $OUT/summary-base.txt
patch -p1 --forward < .s55/dcvt.patch > $OUT/patch.log 2>&1 || { echo "patch failed"; cat $OUT/patch.log; exit 3; }
PROFILES="$P" CLOCKS=0 PROF_SM90_SCHEDULES=256x64_1x1x1_coop_splitk OUT=/tmp/o-dcvt \
  bash scripts/profile_sm90_bench.sh > /tmp/dcvt.txt 2>&1
cp /tmp/o-dcvt/prof.tar.gz $OUT/prof-dcvt.tar.gz; cp /tmp/dcvt.txt $OUT/summary-dcvt.txt
patch -p1 -R < .s55/dcvt.patch > /dev/null
echo "=== base"; sed -n '/== summary/,$p' /tmp/base.txt
echo "=== dcvt"; sed -n '/== summary/,$p' /tmp/dcvt.txt
