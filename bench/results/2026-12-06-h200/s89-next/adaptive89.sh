#!/usr/bin/env bash
# Session 89: one call for whichever card comes, ~9 min of device time.
#   H200  -> session 88's H200 branch unchanged (../s88-next/adaptive88.sh: the s8 decode A/B at M = 12 / 16, then #8's
#            e2e at batch 1; carry .s85).
#   other -> $S89_OTHER (default h100-rest.sh: the four W4A8 Llama-2-70B down sweeps session 88's H100 sweep left out,
#            then the decode points in CUDA graphs on this card; adaptive89b.sh / adaptive89c.sh set other scripts).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s89-next/adaptive89.sh      (repo root)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh \
  'O=$OUT; t0=$SECONDS;
   OUT=$O/ab AB_MS=12,16 timeout 200 bash bench/results/2026-12-06-h200/s85-next/ab_s8m16.sh;
   OUT=$O/e2e E2E_BATCHES=1 timeout $(( ${E2E_TOTAL:-520} - (SECONDS - t0) )) bash bench/results/2026-12-05-h200/s84-next/e2e.sh;
   tar czf $O/ab.tgz -C $O ab; tar czf $O/e2e.tgz -C $O e2e; rm -rf $O/e2e $O/ab' \
  "bash bench/results/2026-12-06-h200/s89-next/${S89_OTHER:-h100-rest.sh}"
