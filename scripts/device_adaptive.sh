#!/usr/bin/env bash
# One device call for whichever card comes: H200_CMD on an H200, OTHER_CMD on any other card (none given: nothing).
# The card's name goes to $OUT/gpu.txt. Sessions 84-86 each wrote this dispatch into their own adaptiveNN.sh.
#   bash scripts/device_adaptive.sh 'H200_CMD' ['OTHER_CMD']      (repo root, on the device)
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "gpu: $gpu"; echo "$gpu" > "$OUT/gpu.txt"
case "$gpu" in
  *H200*) eval "${1:?usage: device_adaptive.sh H200_CMD [OTHER_CMD]}" ;;
  *) if [ -n "${2:-}" ]; then eval "$2"; else echo "not an H200: nothing to do"; fi ;;
esac
