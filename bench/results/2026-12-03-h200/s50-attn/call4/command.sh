#!/usr/bin/env bash
# Session 50, call 4 (the warm machine of call 3, its package build-s50py): the compiled Llama-3-8B step at
# batch 1 with the harness's gqa attention, fp16 / w4a16 / w4a16-ps in one process.
cd /tmp && PYTHONPATH=$OLDPWD/build-s50py timeout 280 python3 $OLDPWD/examples/llama_decode.py --models llama3-8b \
  --batches 1 --variants fp16,w4a16,w4a16-ps --mode compile --new-tokens 32 --attn gqa --out $OUT/e2e-gqa-ps.csv \
  > $OUT/e2e-gqa-ps.log 2>&1; echo rc=$?; grep "batch" $OUT/e2e-gqa-ps.log | cut -c1-120; gzip $OUT/*.log
