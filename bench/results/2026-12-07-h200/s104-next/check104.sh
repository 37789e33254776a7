#!/usr/bin/env bash
# Session 104: the smallm launcher allows non-portable cluster sizes once per kernel and device (resident_ctas,
# cached) instead of on every launch (5205fbb9). Any card: the default build (Release, no Python) with the Smallm /
# GemmApi suites, then an experiment build with -DMIXGEMM_SMALLM_CLUSTER_MAX=16 (the only builds where the changed
# line runs) with the Smallm suites and MIXGEMM_PRINT_CONFIG=1, counting the launches that ran clusters of > 8.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s104-next/check104.sh     (repo root, device)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; L=/tmp/s104/logs; rm -rf "$L"; mkdir -p "$L" "$OUT"; t0=$SECONDS
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tee "$L/gpu.txt"
echo "${MIXGEMM_GIT_COMMIT:-unknown}" > "$L/commit.txt"; cp "$0" "$L/command.sh"
LOGS=$L/default STAGES="build tests" GPU_FILTERS="Smallm* GemmApi*" timeout 330 bash scripts/device_check.sh 2>&1 | tail -4
echo "default done at $((SECONDS - t0)) s"
mkdir -p "$L/c16"
{ cmake -S . -B build-c16 -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_CLUSTER_MAX=16 &&
  timeout 240 cmake --build build-c16 -j "$(nproc)" --target mixgemm_gpu_tests; } > "$L/c16/build.log" 2>&1
echo "c16 build rc=$? at $((SECONDS - t0)) s"
MIXGEMM_PRINT_CONFIG=1 timeout 150 ./build-c16/tests/mixgemm_gpu_tests --gtest_filter='Smallm*' > "$L/c16/smallm.log" 2>&1
echo "c16 Smallm rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$L/c16/smallm.log" | tr '\n' ' ')"
grep -E '^\[  FAILED' "$L/c16/smallm.log" | head -5
echo "c16 launches by cluster size (count, size):"
grep -oE 'cluster split-K, [0-9]+ CTAs per stripe' "$L/c16/smallm.log" | sort | uniq -c | sort -rn | head -8
gzip -f "$L"/*/build.log 2>/dev/null
tar czf "$OUT/check104.tgz" -C "$(dirname "$L")" logs
echo "total $((SECONDS - t0)) s"
