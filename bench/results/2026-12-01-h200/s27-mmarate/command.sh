# Session 27. mma_rate-call3.txt: device call 3 (main aab1ead), after the s27-tm8 runs:
(cmake --build /tmp/v0/build -j 16 --target mixgemm-mma-rate && timeout 90 /tmp/v0/build/tools/mixgemm-mma-rate)
# mma_rate-call5.txt: device call 5 (main 18bfa78, adds the folded rows):
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF
cmake --build /tmp/b -j 16 --target mixgemm-mma-rate && timeout 120 /tmp/b/tools/mixgemm-mma-rate
