#!/usr/bin/env bash
# Session 22 call 3: full check at the merged commit (warp-built e4m3 tables), then the e4m3 g128 sweep.
set -uo pipefail
cd "$(dirname "$0")/.."
C=$(cat .s22/commit.txt)
MIXGEMM_GIT_COMMIT=$C STAGES="build sass tests sanitize" timeout 330 bash scripts/device_check.sh
echo "check done $SECONDS s"
mkdir -p /tmp/sweep
MIXGEMM_GIT_COMMIT=$C TYPES=e4m3.u4b8.g128 ITERS=20 WARMUP=3 TIME_LIMIT=150 SETTLE_MS=300 \
  EXTRA="--baselines cublas_fp16,cublaslt_fp8" timeout 200 bash scripts/run_bench_h200.sh /tmp/sweep > /tmp/sweep/sweep.log 2>&1
echo "sweep rc=$? $SECONDS s"; tar czf $OUT/sweep.tar.gz -C /tmp sweep; tail -5 /tmp/sweep/sweep.log; ls $OUT
