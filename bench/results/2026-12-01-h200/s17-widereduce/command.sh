#!/usr/bin/env bash
# session 17 call 1: wide-tile split-K reduction A/B, then every tile at M = 128..1024 (cand build)
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_MS=256,512,1024,4096 \
  AB_BASELINES=cublas_fp16,cublaslt_fp8
bash scripts/device_sm90_ab.sh .s17/cand.patch
timeout 170 /tmp/cand/build/tools/mixgemm-bench --shapes seed,llama2-70b --m 128,256,512,1024 --types f16.u4b8.g128 \
  --all-schedules --baselines cublas_fp16 --iters 20 --warmup 3 --csv /tmp/ab/allsched.csv --summary-m none --quiet > /tmp/ab/allsched.txt 2>&1
echo "allsched rc=$?"
tar czf "$OUT/ab.tar.gz" -C /tmp ab
