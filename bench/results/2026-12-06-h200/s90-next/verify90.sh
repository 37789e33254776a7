#!/usr/bin/env bash
# Session 90, any card: the shipped stream-K L2 guard (4b99baf's sampled form) through gemm() against the CPU reference
# at the points it moves (the A/B of ../../2026-12-06-h100/s90-streamguard/ ran the exact form, and its --verify CSVs were
# lost to the call's cap). mixgemm-bench --verify, f16 / s8 / e4m3 x u4b8 g128, M = 1200..3200, the long-K layers the
# guard moves; MIXGEMM_PRINT_CONFIG=1 says which split each launch ran. ~3-4 min from a fresh machine; $OUT/verify.tar.gz.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s90-next/verify90.sh      (repo root, device)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/verify90; rm -rf $R; mkdir -p $R; T0=$SECONDS
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tee $R/gpu.txt; cp "$0" $R/command.sh
cmake -S . -B build-v -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk,128x256_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk \
  -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF > $R/build.log 2>&1 &&
  cmake --build build-v -j 16 --target mixgemm-bench >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -20 $R/build.log; exit 2; }
echo "build done at $((SECONDS-T0)) s"; gzip $R/build.log
MIXGEMM_PRINT_CONFIG=1 timeout $(( ${TOTAL:-230} - (SECONDS - T0) )) build-v/tools/mixgemm-bench --shapes llama3-405b/qkv --tp 8 \
  --shape 3584x18944 --shape 4608x36864 --shape 5120x27648 --shape 5120x17920 --m 1200,1400,1800,2048,3200 \
  --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --no-baselines --iters 2 --warmup 1 --settle-ms 0 --verify --verify-rows 4 \
  --csv $R/verify.csv --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --summary-m none --quiet > $R/verify.txt 2> $R/config.txt
echo "bench rc=$? at $((SECONDS-T0)) s: $(grep -c ',pass,' $R/verify.csv) pass, $(grep -c ',loose,' $R/verify.csv) loose, $(grep -c ',fail,' $R/verify.csv) fail rows"
gzip -f $R/config.txt; tar czf $OUT/verify.tar.gz -C /tmp verify90
