#!/usr/bin/env bash
# session 17 call 8: L2 prefetch of the group-scale rows kStages + 4 blocks ahead (sm90 producer), A/B
export AB_SM90_TYPES=f16.u4,s8.u4 AB_TYPES=f16.u4b8.g128,f16.u4b8.gch,s8.u4b8.g128 AB_MS=64,128,256,8192 AB_BASELINES=cublas_fp16
bash scripts/device_sm90_ab.sh .s17/cand.patch
