#!/usr/bin/env bash
# Session 45 call 3: the final tree's GemmApi / Gemm* GPU suites with every instance built (device_check.sh's build
# and tests stages), then GemmApi.RowSplit* in the A/B scripts' restricted build (one sm90 schedule), where
# RowSplitW4A8MatchesReference failed in s44-ab before this session's skip.
set -u
T0=$SECONDS
MIXGEMM_GIT_COMMIT=$(cat .s45/commit.txt) STAGES="build tests" GPU_FILTERS="Gemm*" bash scripts/device_check.sh 2>&1 | tail -15
echo "full build + Gemm* at $((SECONDS-T0)) s"
cmake -S . -B build-r -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=e4m3.u4 \
  -DMIXGEMM_SM90_SCHEDULES=256x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_TOOLS=OFF > /tmp/build-r.log 2>&1 &&
  cmake --build build-r -j 16 --target mixgemm_gpu_tests >> /tmp/build-r.log 2>&1 || tail -20 /tmp/build-r.log
./build-r/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.RowSplit*' > $OUT/restricted-rowsplit.log 2>&1
echo "restricted RowSplit rc=$? at $((SECONDS-T0)) s"
grep -E "skip|OK|FAILED|SKIPPED" $OUT/restricted-rowsplit.log | head -12
