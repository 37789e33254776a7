# Session 27, device call 3 (host main at aab1ead; .s27/u2.patch and .s27/bp.patch flip the default of one
# #define each in src/kernels/smallm/smallm_gemm.cuh, copies in this folder)
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=1,8 \
  AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 AB_TEST_FILTER='Smallm.*:-SmallmTiming.*'
bash scripts/device_sm90_multi.sh .s27/u2.patch .s27/bp.patch
# then, same call: mixgemm-mma-rate of the base tree -> ../s27-mmarate/mma_rate-call3.txt
(cmake --build /tmp/v0/build -j 16 --target mixgemm-mma-rate && timeout 90 /tmp/v0/build/tools/mixgemm-mma-rate)
