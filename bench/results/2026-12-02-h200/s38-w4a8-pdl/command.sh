#!/usr/bin/env bash
# Session 38, call 3: the W4A8 decode GEMM as a programmatic dependent of its activation-quantization kernel.
# (1) C++ GPU tests of the change (restricted build) while the Python package installs; (2) #8's compiled harness,
# Llama-3-8B batch 1, fp16 + w4a8-s8 with the programmatic launch (default) and with MIXGEMM_PDL=0 (same install);
# (3) the package's Python tests if time is left.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
t0=$SECONDS; R=$PWD
( cmake -S . -B build-t -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF && \
  cmake --build build-t -j 8 --target mixgemm_gpu_tests ) > $OUT/build-tests.log 2>&1 &
CMAKE_BUILD_PARALLEL_LEVEL=8 python3 -m pip install --no-build-isolation --no-deps -v --config-settings=build-dir=build-pip . \
  > $OUT/install.log 2>&1 || { tail -30 $OUT/install.log; gzip -f $OUT/install.log; exit 1; }
echo "install ok at $((SECONDS - t0)) s"
wait
echo "tests built at $((SECONDS - t0)) s: $(tail -1 $OUT/build-tests.log)"
timeout 120 build-t/tests/mixgemm_gpu_tests \
  --gtest_filter='GemmApi.ProgrammaticDependentLaunchWaitsForItsProducer:ActivationQuantGpu.*:Smallm.GraphReplay:GemmApi.TwoThreadsTwoStreams:GemmApi.DeterministicBitwise:GemmApi.MatchesReferenceThroughDispatch' \
  > $OUT/tests.log 2>&1
echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' $OUT/tests.log | tr '\n' ' ') at $((SECONDS - t0)) s"
cd /tmp
timeout 200 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 --variants fp16,w4a8-s8 --mode compile \
  --new-tokens 32 --out $OUT/e2e-pdl.csv > $OUT/e2e-pdl.log 2>&1
echo "pdl rc=$? at $((SECONDS - t0)) s"
MIXGEMM_PDL=0 timeout 200 python3 $R/examples/llama_decode.py --models llama3-8b --batches 1 --variants fp16,w4a8-s8 \
  --mode compile --new-tokens 32 --out $OUT/e2e-nopdl.csv > $OUT/e2e-nopdl.log 2>&1
echo "nopdl rc=$? at $((SECONDS - t0)) s"
left=$(( 585 - (SECONDS - t0) ))
[ $left -gt 100 ] && (cd $R && timeout $left python3 -m pytest -q -p no:cacheprovider tests/python > $OUT/pytest.log 2>&1; echo "pytest rc=$?: $(tail -1 $OUT/pytest.log)")
gzip -f $OUT/*.log
zgrep -h "^\[e2e\].*tok/s" $OUT/e2e-pdl.log.gz $OUT/e2e-nopdl.log.gz
