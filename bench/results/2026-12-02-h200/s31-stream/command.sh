#!/usr/bin/env bash
# Prepared in session 30 (not run: the device time ran out). Run from the repository root on the device with
# .sN/stream.patch = `git diff main...wip/sm90-arrive-first-stream -- src tests` and .sN/commit.txt = main's HEAD
# (carry .sN). (1) arrive-first on streamed tiles of every tile shape against main (wide tile only): Sm90 /
# GemmApi suites, memcheck / racecheck of Sm90Sanitize*, bench base v1 v1 base at M = 64 / 128 / 256, 9 layers,
# f16 / s8 / e4m3 g128; (2) the candidate's split modes (heuristic, split-K forced, stream-K forced) for f16 / s8 /
# e4m3 at M = 128..1024 (the Sm90Timing report), to tell whether stream-K, cheaper now, should be picked more
# often (kStreamMargin, sm90_heuristic.cpp). ~220 s.
S=${S:-.s31}
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=64,128,256 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0 \
  AB_TEST_FILTER='Sm90.*:GemmApi.*:-Sm90Timing.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*'
timeout 300 bash scripts/device_sm90_multi.sh $S/stream.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
MIXGEMM_SM90_TIMING=1 MIXGEMM_SM90_TIMING_MODES=1 MIXGEMM_SM90_TIMING_TYPES=f16,s8,e4m3 MIXGEMM_SM90_TIMING_MS=128,256,512,1024 \
  timeout 200 /tmp/v1/build/tests/mixgemm_gpu_tests --gtest_filter='Sm90Timing*' > "${OUT:-.}/timing.log" 2>&1
echo "timing rc=$? $(grep -c SM90_TIME "${OUT:-.}/timing.log") lines"
