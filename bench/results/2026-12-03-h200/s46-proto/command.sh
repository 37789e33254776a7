#!/usr/bin/env bash
# Session 46, calls 1-3 (each on the tree in callN/commit.txt): mixgemm-decode-proto (tools/ubench/decode_proto.cu) on the #6 shapes and
# Llama-3-8B's, M = 1 / 8, beside the library's pick in the same run (CUDA graphs, cold L2).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
( cmake -S . -B build-proto -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=256x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF \
  && cmake --build build-proto -j 16 --target mixgemm-decode-proto ) > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 2; }
echo "build $((SECONDS - T0)) s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > "$OUT/gpu.txt" 2>&1
build-proto/tools/mixgemm-decode-proto --shapes seed,70b,8b --m 1,8 --iters 20 > "$OUT/proto.txt" 2> "$OUT/proto.err"
echo "proto rc=$? $((SECONDS - T0)) s"
cp .s46/proto.sh .s46/commit.txt "$OUT/" 2>/dev/null
cat "$OUT/proto.txt"; tail -5 "$OUT/proto.err"
