#!/usr/bin/env bash
# session 17 call 4: are the heuristic's picks the fastest on the Llama-3-8B decode layers?
# Every schedule (--all-schedules) and the heuristic (a second run) at M = 1..32, f16 / s8 x u4b8 g128.
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/s17c4; rm -rf $R; mkdir -p $R
(cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build -j 16 --target mixgemm-bench) > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build done $SECONDS s"
B="build/tools/mixgemm-bench --shapes llama3-8b --m 1,2,4,8,16,24,32 --types f16.u4b8.g128,s8.u4b8.g128 --iters 30 --warmup 5 --summary-m none --quiet --git-commit $(cat .s17/commit.txt)"
MIXGEMM_PRINT_CONFIG=1 timeout 150 $B --baselines cublas_fp16 --verify --csv $R/heuristic.csv > $R/heuristic.txt 2> $R/heuristic.err; echo "heuristic rc=$? $SECONDS s"
timeout 240 $B --all-schedules --no-baselines --csv $R/allsched.csv > $R/allsched.txt 2>&1; echo "allsched rc=$? $SECONDS s"
timeout 60 $B --baselines cublas_fp16 --csv $R/heuristic2.csv > $R/heuristic2.txt 2>&1; echo "heuristic2 rc=$? $SECONDS s"
tar czf $OUT/c4.tar.gz -C /tmp s17c4

#!/usr/bin/env bash
# session 17 call 5: the smallm / sm90 crossover per activation type at M <= 24 (every schedule), 9 shapes
export PATH=/usr/local/cuda/bin:$PATH
R=/tmp/s17c5; rm -rf $R; mkdir -p $R
(cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build -j 16 --target mixgemm-bench) > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
echo "build done $SECONDS s"
B="build/tools/mixgemm-bench --shapes seed,llama2-70b,llama3-8b --m 1,2,4,8,12,16,24 --iters 30 --warmup 5 --summary-m none --quiet --git-commit $(cat .s17/commit.txt)"
T=e4m3.u4b8.g128,e4m3.u4b8.gch,s8.u4b8.g128,s8.u4b8.gch,f16.u4b8.g128,bf16.u4b8.g128
timeout 300 $B --types $T --all-schedules --no-baselines --csv $R/allsched.csv > $R/allsched.txt 2>&1; echo "allsched rc=$? $SECONDS s"
timeout 150 $B --types $T --baselines cublas_fp16 --csv $R/heuristic.csv > $R/heuristic.txt 2>&1; echo "heuristic rc=$? $SECONDS s"
tar czf $OUT/c5.tar.gz -C /tmp s17c5

#!/usr/bin/env bash
# session 17 call 6: grouped e4m3 compares the models from M = 9 (dispatch change), A/B in one run
export AB_SM90_TYPES=e4m3.u4 AB_TYPES=e4m3.u4b8.g128,e4m3.u4b8.gch AB_MS=8,9,12,16 AB_SHAPES=seed,llama2-70b,llama3-8b \
  AB_BASELINES=cublas_fp16 AB_TEST_FILTER='Gemm*:Sm90*:-Sm90Timing.*:GemmSanitize*'
bash scripts/device_sm90_ab.sh .s17/cand.patch
