#!/usr/bin/env bash
# Session 76: the shortest GPU check of the session's host change, for a call with ~5 min of device time: the
# library and the GPU tests built (no Python extension), then GemmApi.* (NoTokensLaunchesNothing: M = 0 checked,
# nothing launched, no graph node; dispatch, capture, two streams, the refusals) and ActivationQuant*
# (gemm_with_activation_quant, whose quantize half no longer asks the stream its device a second time).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s76-next/api-check.sh
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
LOGS=/tmp/s76-check/logs GPU_FILTERS="GemmApi* ActivationQuant*" STAGES="build tests" \
  timeout "${LIMIT:-300}" bash scripts/device_check.sh 2>&1 | tail -6
echo "done at $((SECONDS - t0)) s"
