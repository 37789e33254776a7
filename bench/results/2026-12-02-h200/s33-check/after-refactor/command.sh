#!/usr/bin/env bash
# Session 33 call 7: GemmApi.* on main after the gemm() refactor (the one-launch pick computed once).
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
cmake -S . -B build-ck -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
  > $OUT/build.log 2>&1 && cmake --build build-ck -j 16 --target mixgemm_gpu_tests >> $OUT/build.log 2>&1 \
  || { tail -30 $OUT/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"
timeout 150 build-ck/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.*:ActivationQuantGpu.*' > $OUT/gpu-gemm.log 2>&1
echo "gpu rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/gpu-gemm.log | tr '\n' ' ')"; grep -E '^\[       OK|FAILED  \]' $OUT/gpu-gemm.log
MIXGEMM_PRINT_CONFIG=1 build-ck/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.RowSplit*:GemmApi.MatchesReferenceThroughDispatch' 2> $OUT/print-config.txt > /dev/null
gzip $OUT/build.log; cp .s33/check2.sh $OUT/command.sh; cp .s33/commit.txt $OUT/
