#!/usr/bin/env bash
# session 18 call 5: the wide tile's per-thread stage offsets computed once and pinned, A/B
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES=128x256_1x1x1_coop_splitk \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128,e4m3.u4b8.gch AB_MS=1024,8192 AB_SETTLE_MS=300 \
  AB_BASELINES=cublas_fp16,cublaslt_fp8 AB_TEST_FILTER='Sm90*:Gemm*:-Sm90Timing.*:GemmSanitize*'
bash scripts/device_sm90_ab.sh .s18/cand2.patch
