#!/usr/bin/env bash
# session 18 call 1: e4m3 per-channel (u4b8, no group scales) weights as e5m2 (wgmma .e5m2.e4m3), A/B
export AB_SM90_TYPES=e4m3.u4 AB_TYPES=e4m3.u4b8.gch,e4m3.u4b8.g128 AB_MS=64,128,256,1024,4096,8192 \
  AB_BASELINES=cublaslt_fp8 AB_TEST_FILTER='Convert*:Sm90*:Gemm*:-Sm90Timing.*:GemmSanitize*'
bash scripts/device_sm90_ab.sh .s18/cand.patch
