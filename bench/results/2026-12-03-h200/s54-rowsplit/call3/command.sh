#!/usr/bin/env bash
# Session 54 call 3: the new row split constants in the library. Build f16 / bf16 / s8 / e4m3 x u4 with the GPU
# tests; GemmApi.* (RowSplit* now on 288 x 28672 x 2560) and memcheck of RowSplit*; then gemm() with the rule on
# (MIXGEMM_ROW_SPLIT=1, the heuristic's plan) on call 2's grid, twice, to compare with call 2's one launch / split
# timings of the same points (the plan each row ran is in its schedule column).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
S=${S:-.s54}; OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/check; rm -rf $R; mkdir -p $R; T0=$SECONDS
cp $S/commit.txt $S/check.sh $R/
cmake -S . -B build-ck -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
  -DMIXGEMM_BUILD_PYTHON=OFF > $R/build.log 2>&1 &&
  cmake --build build-ck -j 16 --target mixgemm-bench mixgemm_gpu_tests mixgemm_cpu_tests >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -20 $R/build.log; exit 2; }
echo "build done at $((SECONDS-T0)) s"
timeout 200 build-ck/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.*' > $R/gemmapi.log 2>&1
echo "GemmApi rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gemmapi.log | tr '\n' ' ') at $((SECONDS-T0)) s"
grep -E "^\[  FAILED|\[ skip" $R/gemmapi.log | head
timeout 100 build-ck/tests/mixgemm_cpu_tests --gtest_filter='Dispatch.*:Sm90Heuristic.*' > $R/cpu.log 2>&1
echo "cpu Dispatch/Sm90Heuristic rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/cpu.log | tr '\n' ' ')"
timeout 150 compute-sanitizer --tool memcheck build-ck/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.RowSplit*' > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(grep 'ERROR SUMMARY' $R/memcheck.log | tail -1) at $((SECONDS-T0)) s"
for i in 1 2; do
  MIXGEMM_ROW_SPLIT=1 timeout 120 build-ck/tools/mixgemm-bench --shapes llama3-405b --tp 8 \
    --shape 15360x5120 --shape 5120x5120 --shape 27648x5120 --shape 5120x13824 --shape 37888x3584 --shape 3584x18944 \
    --shape 59136x8192 --shape 8192x29568 --m 272,336,400,464,528,600,672,736,832,960,1200,1500,1800,2200,2700,3300 \
    --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --no-baselines --iters 20 --warmup 3 --settle-ms 0 \
    --csv $R/rule$i.csv --git-commit "$(cat $S/commit.txt)" --summary-m none --quiet > $R/rule$i.txt 2>&1
  echo "rule$i rc=$? at $((SECONDS-T0)) s"
done
gzip $R/build.log
tar czf $OUT/check.tar.gz -C /tmp check
echo "total $((SECONDS-T0)) s"
