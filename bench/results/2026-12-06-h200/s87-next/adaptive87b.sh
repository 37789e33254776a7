#!/usr/bin/env bash
# Session 87, second form (~500 s of device time left): H200 -> #8's e2e harness at batch 1 alone (s84-next/e2e.sh,
# E2E_BATCHES=1, capped at 420 s; $OUT/e2e.tgz); any other card -> GemmFuzz wide from another seed (fuzz_wide.sh,
# FUZZ_SEED=9000).   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s87-next/adaptive87b.sh
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh \
  'O=$OUT; OUT=$O/e2e E2E_BATCHES=1 timeout ${E2E_CAP:-420} bash bench/results/2026-12-05-h200/s84-next/e2e.sh; tar czf $O/e2e.tgz -C $O e2e; rm -rf $O/e2e' \
  "${ADAPTIVE87B_OTHER-FUZZ_SEED=9000 FUZZ_TIMEOUT=200 bash bench/results/2026-12-06-h200/s87-next/fuzz_wide.sh}"
