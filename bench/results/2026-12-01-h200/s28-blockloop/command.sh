#!/usr/bin/env bash
# Session 28, device call 5: mixgemm-mma-rate with the sm90 block-loop cases (does a warpgroup's wgmma issue block?).
export PATH=/usr/local/cuda/bin:$PATH
cmake -S . -B build-ub -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk \
  -DMIXGEMM_BUILD_TESTS=OFF > $OUT/build.log 2>&1 && cmake --build build-ub -j 16 --target mixgemm-mma-rate >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
timeout 200 ./build-ub/tools/mixgemm-mma-rate --iters 4096 2>&1 | tee $OUT/mma_rate.txt | grep -E "^#|instruction|blk"
