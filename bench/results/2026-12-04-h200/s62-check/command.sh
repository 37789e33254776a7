#!/usr/bin/env bash
# Session 62 call 2: the full check of main (every sm90 and smallm instance built, SASS, every GPU suite, memcheck /
# racecheck) and the Python package's GPU work (pip install, import, pytest tests/python with the GPU suite), with a
# one-layer smoke run of examples/llama_decode.py. The first full check since session 58 (main has since gained
# 63da697, e4m3 pairs on the narrow tiles) and the first full Python GPU suite since session 43.
set -u
C=$(cat .s62/commit.txt)
mkdir -p "$OUT/check" "$OUT/python"
MIXGEMM_GIT_COMMIT=$C STAGES="build sass tests sanitize" OUT=$OUT/check timeout 330 bash scripts/device_check.sh \
  > "$OUT/check/stdout.txt" 2>&1; echo "device_check rc=$?"
E2E_ARGS="--models llama3-8b --layers 1 --new-tokens 4 --batches 1 --mode graph --variants fp16,w4a16,w4a8-s8,w4a8-e4m3" \
  E2E_TIMEOUT=90 TEST_TIMEOUT=200 OUT=$OUT/python timeout 250 bash scripts/device_python.sh > "$OUT/python/stdout.txt" 2>&1
echo "device_python rc=$?"
tail -25 "$OUT/check/stdout.txt"; cat "$OUT/python/summary.txt"
(cd "$OUT" && tar czf s62-check.tar.gz check python && rm -rf check python); ls -la "$OUT"
