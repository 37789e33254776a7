#!/usr/bin/env bash
# Session 96: on an H200 the queue's item 1 (../s95-next/README.md), every e4m3 tile / schedule forced on session 65's
# 13 layers (../../2026-12-05-h200/s81-next/e4m3all.sh); on any other card nothing (every H100 item has run).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s96-next/poll96.sh      (repo root, device)
cd "$(dirname "$0")/../../../.."
exec bash scripts/device_adaptive.sh 'bash bench/results/2026-12-05-h200/s81-next/e4m3all.sh'
