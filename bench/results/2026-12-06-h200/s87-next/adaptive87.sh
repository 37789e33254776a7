#!/usr/bin/env bash
# Session 87: one call for whichever card comes. H200 -> the H200 queue's items 1 and 2 (s86-next/h200-pair.sh: #8's
# e2e at batch 1, then the s8 decode A/B; carry .s85). Any other card -> the GPU tests' build (every sm90 instance) and
# GemmFuzz's wide run: FUZZ_CASES (default 600) random problems from seed FUZZ_SEED (default 5000), a tenth of them at
# M = 601..4096 (the wide tiles and row splits, compared on sampled rows), logs in $OUT/fuzz.tgz.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s87-next/adaptive87.sh    (repo root)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh \
  'bash bench/results/2026-12-06-h200/s86-next/h200-pair.sh' \
  'bash bench/results/2026-12-06-h200/s87-next/fuzz_wide.sh'
