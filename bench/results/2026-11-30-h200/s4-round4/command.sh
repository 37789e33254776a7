#!/usr/bin/env bash
# Session 4, fourth device call, on main with the shared workspace layout and the W4A8
# crossover: (1) build (every instance + Python), (2) the GPU suites Gemm* (incl. the new
# GemmApi.FamiliesShareOneWorkspace), Smallm*, Sm90*, sanitizers, the Python GPU tests,
# (3) the e2e decode (fused, every variant, batch 1/8/32), (4) W4A8 at M = 32/64 through the
# heuristic (now sm90 256 x 64 / 128 x 64) vs cuBLAS fp16. Logs: $OUT/round4.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
FINAL=${OUT:-$PWD/device-out}; OUT=/tmp/s4r4; rm -rf "$OUT"; mkdir -p "$OUT" "$FINAL"
trap 'tar czf "$FINAL/round4.tar.gz" -C /tmp s4r4' EXIT
T0=$SECONDS
{ cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON &&
  cmake --build build -j 16; } > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build at $((SECONDS-T0)) s"
for f in 'Gemm*' 'Smallm*' 'Sm90*'; do
  n=$(echo "$f" | tr -cd 'A-Za-z0-9')
  timeout 200 ./build/tests/mixgemm_gpu_tests --gtest_filter="$f" > "$OUT/gpu_$n.log" 2>&1
  echo "gpu $f rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/gpu_$n.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
done
grep -E "FamiliesShareOneWorkspace" "$OUT/gpu_Gemm.log"
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool ./build/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*:GemmApi.Families*' > "$OUT/$tool.log" 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool.log" | tail -1)"
done
export PYTHONPATH=$PWD/build/python
timeout 120 python3 -m pytest -q tests/python/test_gpu.py > "$OUT/pytest-gpu.log" 2>&1
echo "pytest gpu rc=$?: $(tail -1 "$OUT/pytest-gpu.log") at $((SECONDS-T0)) s"
timeout 110 python3 examples/llama_decode.py --models llama3-8b --new-tokens 32 --out "$OUT/e2e-fused.csv" \
  > "$OUT/e2e-fused.log" 2>&1
echo "e2e rc=$? at $((SECONDS-T0)) s"; grep -E "^\[e2e\].*(batch|non-finite)" "$OUT/e2e-fused.log"
timeout 90 ./build/tools/mixgemm-bench --shapes seed,llama2-70b --m 32,64 --types s8.u4b8.g128,e4m3.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.gch \
  --baselines cublas_fp16,cublaslt_fp8 --iters 30 --warmup 5 --verify --csv "$OUT/a8-m32-64.csv" --json "$OUT/a8-m32-64.json" \
  --summary-m none --quiet > "$OUT/a8-m32-64.txt" 2>&1
echo "a8 bench rc=$? at $((SECONDS-T0)) s"
awk -F, 'NR>1 && $7!~/cublas/ {printf "%-20s %3s %-16s %-32s %8s us x%s fp16 %s\n",$2,$5,$8,$13,$16,$27,$15}' "$OUT/a8-m32-64.csv"
