#!/usr/bin/env bash
# Session 87, third form (the session's last ~480 s of device time): H200 -> #8's e2e harness at batch 1 alone
# (s84-next/e2e.sh, E2E_BATCHES=1, capped at E2E_CAP s, default 330: install + fp16 + w4a16; $OUT/e2e.tgz); any other
# card -> the GPU tests' build and both GemmFuzz tests (the new PartialSumsMatchReference with them), FUZZ_CASES=300
# from seed 12000 (fuzz_wide.sh).    MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s87-next/adaptive87c.sh
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh \
  'O=$OUT; OUT=$O/e2e E2E_BATCHES=1 timeout ${E2E_CAP:-330} bash bench/results/2026-12-05-h200/s84-next/e2e.sh; tar czf $O/e2e.tgz -C $O e2e; rm -rf $O/e2e' \
  'FUZZ_SEED=12000 FUZZ_CASES=300 FUZZ_TIMEOUT=200 bash bench/results/2026-12-06-h200/s87-next/fuzz_wide.sh'
