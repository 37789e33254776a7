#!/usr/bin/env bash
# Session 43 call 6 (the last ~2 minutes of device time): a first look at the e4m3 group tables: build main and the
# patched tree (bench; tests for the patch), run Smallm.W4A8_E4M3 on the patch, then main / patch / patch / main at
# the heuristic's picks in CUDA graphs, M = 1, e4m3 u4b8 g128, Llama-2-70B o and the seed shape.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
T0=$SECONDS
for v in base tab; do
  d=/tmp/q-$v; rm -rf $d; mkdir -p $d; tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C $d
  [ $v = tab ] && (cd $d && patch -p1 < .s43/e4m3-tables.patch > /dev/null)
  tg="mixgemm-bench"; [ $v = tab ] && tg="mixgemm-bench mixgemm_gpu_tests"
  ( cmake -S $d -B $d/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=e4m3.u4 \
      -DMIXGEMM_SM90_SCHEDULES=256x64_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF > $OUT/build-$v.log 2>&1 && \
    cmake --build $d/build -j 16 --target $tg >> $OUT/build-$v.log 2>&1 || echo "BUILD $v FAILED" ) &
done
wait
echo "built at $((SECONDS - T0)) s"
timeout 30 /tmp/q-tab/build/tests/mixgemm_gpu_tests --gtest_filter='Smallm.W4A8_E4M3' > $OUT/test-tab.log 2>&1
echo "tab Smallm.W4A8_E4M3 rc=$?: $(grep -E '^\[  (PASSED|FAILED)' $OUT/test-tab.log | tr '\n' ' ') at $((SECONDS - T0)) s"
grep -E "Failure|differs|mismatch" $OUT/test-tab.log | head -5
for v in base tab tab base; do
  timeout 20 /tmp/q-$v/build/tools/mixgemm-bench --shapes llama2-70b,seed --m 1 --types e4m3.u4b8.g128 --no-baselines \
    --iters 40 --warmup 3 --settle-ms 0 --graph-batch 32 --summary-m none --quiet --csv $OUT/b-$v-$SECONDS.csv > /dev/null 2>&1
  echo "bench $v rc=$? at $((SECONDS - T0)) s"
done
for f in $OUT/b-*.csv; do echo "$(basename $f): $(awk -F, 'NR>1 && $7=="mixgemm" {printf "%s %s %s %s; ", $2, $13, $16, $23}' $f)"; done
