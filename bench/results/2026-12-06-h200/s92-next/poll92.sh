#!/usr/bin/env bash
# Session 92's H200 poll: on an H200 the queue's item 6 (the #6 decode points in CUDA graphs, ../s90-next/graph200.sh,
# ~6 min from a fresh machine); on any other card nothing (its H100 numbers: ../../2026-12-06-h100/s89-graph/).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s92-next/poll92.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh 'TOTAL=540 bash bench/results/2026-12-06-h200/s90-next/graph200.sh'
