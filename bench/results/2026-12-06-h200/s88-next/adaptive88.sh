#!/usr/bin/env bash
# Session 88: one call for whichever card comes, sized for ~9 min of device time.
#   H200 -> the s8 decode A/B at M = 12 / 16 (s85-next/ab_s8m16.sh, capped at 200 s; carry .s85), then #8's e2e at
#           batch 1 (s84-next/e2e.sh) with what is left of E2E_TOTAL (default 520 s); $OUT/ab.tgz, $OUT/e2e.tgz.
#   other -> the bars' full sweep (s81-next/sweep-full.sh) with the bench capped at TIME_LIMIT (default 300 s): the
#           card's standing against its own cuBLAS in one run; rows past the cap are left out ($OUT/sweep-full.tar.gz).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s88-next/adaptive88.sh      (repo root)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh \
  'O=$OUT; t0=$SECONDS;
   OUT=$O/ab AB_MS=12,16 timeout 200 bash bench/results/2026-12-06-h200/s85-next/ab_s8m16.sh;
   OUT=$O/e2e E2E_BATCHES=1 timeout $(( ${E2E_TOTAL:-520} - (SECONDS - t0) )) bash bench/results/2026-12-05-h200/s84-next/e2e.sh;
   tar czf $O/ab.tgz -C $O ab; tar czf $O/e2e.tgz -C $O e2e; rm -rf $O/e2e $O/ab' \
  'TIME_LIMIT=${TIME_LIMIT:-300} bash bench/results/2026-12-05-h200/s81-next/sweep-full.sh'
