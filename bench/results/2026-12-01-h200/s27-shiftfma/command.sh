# Session 27, device call 6 (host main at the commit in commit.txt; .s27/fma.patch flips
# MIXGEMM_CVT_SHIFT_ON_FMA to 1 in src/kernels/convert/convert_16bit.cuh, copy in this folder)
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x128_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=1,8,128 \
  AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 AB_TEST_FILTER='Smallm.*:ConvertGpu.*:Sm90*:-SmallmTiming.*'
bash scripts/device_sm90_multi.sh .s27/fma.patch
for v in v0 v1; do (cmake --build /tmp/$v/build -j 16 --target mixgemm-mma-rate && timeout 60 /tmp/$v/build/tools/mixgemm-mma-rate); done
