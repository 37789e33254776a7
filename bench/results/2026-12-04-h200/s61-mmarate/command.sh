#!/usr/bin/env bash
# Session 61, call 4: mixgemm-mma-rate with the grouped e4m3 rows (today's f16 mma.sync form against the fp8
# register-A wgmma m64n8k32, with and without promotion every 64 k), twice.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
(cmake -S . -B build-mr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
   -DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF \
 && cmake --build build-mr -j 16 --target mixgemm-mma-rate) > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 2; }
echo "build $((SECONDS - T0)) s"
B=$(find build-mr -name mixgemm-mma-rate -type f | head -1)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv > "$OUT/gpu.txt" 2>&1
for r in 1 2; do timeout 120 "$B" > "$OUT/mma-rate-$r.txt" 2>&1; echo "run $r rc=$?"; done
grep -E "^#|^instruction|^row" "$OUT/mma-rate-1.txt"
echo "--- run 2 (rows)"; grep -E "^row" "$OUT/mma-rate-2.txt"
echo "total $((SECONDS - T0)) s"
