#!/usr/bin/env bash
# Session 51, call 5: where TM 16's extra time goes against TM 8 (the smallm trace: per-CTA milestones and
# warps 0/1's cycle accounts; scripts/smallm_trace_summary.py). GPU tests built on the dev machine with
# -DMIXGEMM_SMALLM_TRACE (a31303d's kernels; sm90 restricted to f16.u4 256x64). SmallmTiming.Report,
# f16 x u4b8 g128, 8192 x 8192 (shape 2) and the seed (shape 0), M = 1 / 8 / 16, t8_w8_o2 and t16_w8_o2.
set -uo pipefail
T=./.s51/tr/tests/mixgemm_gpu_tests
for cfg in t8_w8_o2 t16_w8_o2; do
  MIXGEMM_SMALLM_TRACE_FILE=$OUT/trace.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=2,0 \
    MIXGEMM_SMALLM_TIMING_MS=1,8,16 MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=$cfg \
    timeout 150 $T --gtest_filter='SmallmTiming.Report' > $OUT/timing-$cfg.log 2>&1
  echo "$cfg rc=$?"
done
python3 scripts/smallm_trace_summary.py $OUT/trace.txt > $OUT/trace-summary.txt 2>&1
gzip -f $OUT/trace.txt
cat $OUT/trace-summary.txt | head -120
grep -hE "t8_w8_o2|t16_w8_o2" $OUT/timing-*.log | head -20
