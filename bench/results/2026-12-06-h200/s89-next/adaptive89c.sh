#!/usr/bin/env bash
# Session 89, third call: the H200 branch of adaptive89.sh (carry .s85); on any other card e2e-w4a8.sh (#8's harness
# with the W4A8 variants at batch 1).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s89-next/adaptive89c.sh      (repo root)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh \
  'O=$OUT; t0=$SECONDS;
   OUT=$O/ab AB_MS=12,16 timeout 200 bash bench/results/2026-12-06-h200/s85-next/ab_s8m16.sh;
   OUT=$O/e2e E2E_BATCHES=1 timeout $(( ${E2E_TOTAL:-520} - (SECONDS - t0) )) bash bench/results/2026-12-05-h200/s84-next/e2e.sh;
   tar czf $O/ab.tgz -C $O ab; tar czf $O/e2e.tgz -C $O e2e; rm -rf $O/e2e $O/ab' \
  'bash bench/results/2026-12-06-h200/s89-next/e2e-w4a8.sh'
