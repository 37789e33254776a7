#!/usr/bin/env bash
# Session 86, prepared: the H200 queue's items 1 and 2 in one call (a warm machine is gone 30 s after a call, so a
# second call rarely finds it). On an H200: #8's e2e harness at batch 1 (s84-next/e2e.sh; ~270-340 s from a fresh
# machine by session 86's H100 run: install 117 s, fp16 + w4a16 ~150 s, w4a16-ps ~75 s), then the s8 decode A/B at
# M = 12 / 16 (s85-next/ab_s8m16.sh, ~150 s on a fresh H100) with what is left. Any other card: nothing
# (PAIR_OTHER=e2e: the e2e harness there, informative only). Carry .s85 (s85-next/README.md says how).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s86-next/h200-pair.sh     (repo root; ~8-9 min)
cd "$(dirname "$0")/../../../.."
other=''
[ "${PAIR_OTHER:-}" = e2e ] && other='E2E_BATCHES=1 bash bench/results/2026-12-05-h200/s84-next/e2e.sh'
# Each part writes into its own folder under $OUT, tarred at the end: at most ~8 files come back from a call.
exec bash scripts/device_adaptive.sh \
  'O=$OUT; OUT=$O/e2e E2E_BATCHES=1 timeout 380 bash bench/results/2026-12-05-h200/s84-next/e2e.sh;
   OUT=$O/ab AB_MS=12,16 timeout 200 bash bench/results/2026-12-06-h200/s85-next/ab_s8m16.sh;
   tar czf $O/e2e.tgz -C $O e2e; tar czf $O/ab.tgz -C $O ab; rm -rf $O/e2e $O/ab' \
  "$other"
