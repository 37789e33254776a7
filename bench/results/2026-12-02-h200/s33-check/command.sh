#!/usr/bin/env bash
# Session 33 call 6: main at the session's end (commit.txt): every GPU suite through the public API
# (GemmApi.*, incl. RowSplit* on the committed rule) and the Python package's tests on the GPU.
S=.s33
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
cmake -S . -B build-ck -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
  > $OUT/build.log 2>&1 && cmake --build build-ck -j 16 --target mixgemm_gpu_tests mixgemm_cpu_tests >> $OUT/build.log 2>&1 \
  || { tail -30 $OUT/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"
build-ck/tests/mixgemm_cpu_tests --gtest_filter='Dispatch.*' > $OUT/cpu-dispatch.log 2>&1; echo "cpu Dispatch rc=$? $(tail -1 $OUT/cpu-dispatch.log)"
timeout 200 build-ck/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.*' > $OUT/gpu-gemm.log 2>&1
echo "gpu GemmApi rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/gpu-gemm.log | tr '\n' ' ')"
MIXGEMM_PRINT_CONFIG=1 build-ck/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.RowSplit*' 2> $OUT/print-config.txt > /dev/null
export PYTHONUNBUFFERED=1 CMAKE_BUILD_PARALLEL_LEVEL=16
python3 -m pip install --no-build-isolation --no-deps --config-settings=build-dir=build-pip . > $OUT/install.log 2>&1; echo "pip install rc=$? at $((SECONDS - T0)) s"
(cd / && python3 -c "import mixgemm; print(mixgemm.describe_plan(320, 8192, 21760, group_size=128)); print(mixgemm.describe_plan(320, 8192, 21760, a_type='s8', group_size=128))") 2>&1 | tee $OUT/plan.txt
timeout 240 python3 -m pytest -rs -p no:cacheprovider tests/python > $OUT/pytest.log 2>&1; echo "pytest rc=$? $(tail -1 $OUT/pytest.log)"
gzip $OUT/build.log $OUT/install.log
cp $S/check.sh $OUT/command.sh; cp $S/commit.txt $OUT/
