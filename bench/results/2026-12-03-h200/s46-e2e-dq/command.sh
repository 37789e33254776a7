#!/usr/bin/env bash
# Session 46, call 4: the e2e logits error against the fp16 model on the dequantized weights (logits_rel_err_dq,
# examples/llama_decode.py), and its CPU test (tests/python/test_e2e_harness_cpu.py needs torch: run here).
set -u
ROOT=$PWD; T0=$SECONDS
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
L=/tmp/s46; mkdir -p $L $OUT
CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v \
  --config-settings=build-dir=build-pip . > $L/install.log 2>&1
echo "install rc=$? at $((SECONDS-T0)) s"
(cd /tmp && python3 -m pytest -q -rs $ROOT/tests/python/test_e2e_harness_cpu.py > $OUT/pytest-e2e-harness.log 2>&1)
echo "pytest rc=$? at $((SECONDS-T0)) s"; tail -3 $OUT/pytest-e2e-harness.log
(cd /tmp && timeout 360 python3 $ROOT/examples/llama_decode.py --models llama3-8b,llama2-7b --batches 1,8 \
  --variants fp16,w4a16 --mode graph --new-tokens 16 --out $OUT/e2e-dq.csv > $OUT/e2e-dq.log 2>&1)
echo "e2e rc=$? at $((SECONDS-T0)) s"
gzip -c $L/install.log > $OUT/install.log.gz
cp .s46/e2e.sh .s46/commit.txt $OUT/
grep -E "^\[e2e\]" $OUT/e2e-dq.log | tail -14
