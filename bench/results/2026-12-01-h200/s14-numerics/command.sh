#!/usr/bin/env bash
# session 14, call 11: the error of three W4A16 conversion forms on the H200's mma.sync
# (tests/gpu/test_numerics_forms.cu, MIXGEMM_NUMERICS_REPORT=1).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/r11; rm -rf $R; mkdir -p $R
T0=$SECONDS
cmake -S . -B build-d -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk > $R/build.log 2>&1 &&
  cmake --build build-d -j 16 --target mixgemm_gpu_tests >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -30 $R/build.log; }
echo "build $((SECONDS-T0)) s"
MIXGEMM_NUMERICS_REPORT=1 timeout 200 build-d/tests/mixgemm_gpu_tests --gtest_filter='NumericsForms.Report' > $R/numerics.log 2>&1
echo "report rc=$? at $((SECONDS-T0)) s"
grep NUMERICS $R/numerics.log
cp $R/numerics.log $OUT/
echo "total $((SECONDS-T0)) s"
