#!/usr/bin/env bash
# Session 29, device call 3: the split-K skew experiment (branch wip/sm90-split-skew, this tree): one build
# (sm90 f16.u4 / s8.u4 / e4m3.u4, every schedule), GPU suites with MIXGEMM_SM90_SPLIT_SKEW=0 and =6, memcheck /
# racecheck of Sm90Sanitize* at skew 6, then the bench at skews 0 3 6 10 16 16 10 6 3 0 (heuristic picks,
# M = 64 / 128 / 256: the split tiles).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
R=/tmp/skew; rm -rf $R; mkdir -p $R; T0=$SECONDS
( cmake -S . -B build-skew -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 &&
  cmake --build build-skew -j 16 --target mixgemm-bench mixgemm_gpu_tests ) > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build $((SECONDS - T0)) s"
TB=build-skew/tests/mixgemm_gpu_tests
for d in 0 6; do
  MIXGEMM_SM90_SPLIT_SKEW=$d timeout 150 $TB --gtest_filter='Sm90.*:GemmApi.*:-Sm90Timing.*' > $R/tests-skew$d.log 2>&1
  echo "tests skew=$d rc=$?: $(grep -E '^\[  (PASSED|FAILED)' $R/tests-skew$d.log | tr '\n' ' ') at $((SECONDS - T0)) s"
done
for tool in memcheck racecheck; do
  MIXGEMM_SM90_SPLIT_SKEW=6 timeout 100 compute-sanitizer --tool $tool $TB --gtest_filter='Sm90Sanitize*' > $R/skew6-$tool.log 2>&1
  echo "skew6 $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/skew6-$tool.log | tail -1)"
done
for d in 0 3 6 10 16 16 10 6 3 0; do
  n=1; [ -f $R/skew$d-1.csv ] && n=2
  MIXGEMM_SM90_SPLIT_SKEW=$d timeout 120 build-skew/tools/mixgemm-bench --shapes seed,llama2-70b,llama3-8b --m 64,128,256 \
    --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --no-baselines --iters 20 --warmup 3 --settle-ms 0 \
    --csv $R/skew$d-$n.csv --git-commit "$(cat .s29/commit.txt)" --summary-m none --quiet > $R/skew$d-$n.txt 2>&1
  echo "bench skew=$d run $n rc=$? at $((SECONDS - T0)) s"
done | grep -v "rc=0" || true
gzip $R/build.log
tar czf "$OUT/skew.tar.gz" -C /tmp skew
python3 scripts/ab_multi_summary.py $R skew0 skew3 skew6 skew10 skew16 | grep geomean
echo "total $((SECONDS - T0)) s"
