#!/usr/bin/env bash
# Session 43 call 2: pip install (whole build), pytest tests/python (GPU suite included), compiled Llama-3-8B decode
# at batch 1, all four variants.
E2E_ARGS="--models llama3-8b --new-tokens 32 --batches 1 --mode compile --variants fp16,w4a16,w4a8-s8,w4a8-e4m3" \
  E2E_TIMEOUT=330 TEST_TIMEOUT=200 bash scripts/device_python.sh
