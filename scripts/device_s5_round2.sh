#!/usr/bin/env bash
# Session 5, device call 2 (right after call 1, on the warm machine: reuses ./build-s5):
# the Llama-3-8B decode end to end, (1) CUDA-graph mode with the per-kernel-category profile
# of a step (examples/llama_decode.py --profile-out), (2) torch.compile reduce-overhead mode,
# fp16 and w4a16, the same harness. Results in $OUT/e2e-*.csv and logs.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
if [ ! -f build-s5/python/mixgemm/__init__.py ] && ! ls build-s5/python/mixgemm/_C*.so > /dev/null 2>&1; then
  ( cmake -S . -B build-s5 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON -DMIXGEMM_BUILD_TESTS=OFF \
      -DMIXGEMM_BUILD_TOOLS=OFF -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 && cmake --build build-s5 -j 16 ) > "$OUT/build.log" 2>&1
  echo "build rc=$? $((SECONDS-T0)) s"
fi
export PYTHONPATH=$PWD/build-s5/python PYTHONUNBUFFERED=1
timeout 200 python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 --batches 1,8 \
  --variants fp16,w4a16,w4a8-s8 --out "$OUT/e2e-graph.csv" --profile-out "$OUT/e2e-profile.csv" > "$OUT/e2e-graph.log" 2>&1
echo "graph rc=$? at $((SECONDS-T0)) s"
grep -E "^\[e2e\].*(batch|us \()" "$OUT/e2e-graph.log"
timeout ${COMPILE_TIMEOUT:-330} python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 --batches ${COMPILE_BATCHES:-1} \
  --variants fp16,w4a16 --mode compile --out "$OUT/e2e-compile.csv" > "$OUT/e2e-compile.log" 2>&1
echo "compile rc=$? at $((SECONDS-T0)) s"
grep -E "^\[e2e\].*batch|Error|error" "$OUT/e2e-compile.log" | head -12
