#!/usr/bin/env bash
# Session 77, prepared: the bars' sweep (s65-sweep's command) at M = 1..64 only, on main with the narrow token tiles
# (256 x 32 / 256 x 16 in place of 256 x 64 at M <= 32), cuBLAS fp16 / cuBLASLt fp8 in the same run: #6's M = 32 / 64
# bars and the decode rows, on the H200 (the narrow tiles were timed on an H100 only, 2026-12-05-h100/s77-t32/).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s77-next/sweep-small.sh     (repo root; ~8 min)
# Then scripts/bar_status.py's table against s65-sweep/bars.md (M = 24 / 32 rows: 256 x 64 then, 256 x 32 now).
# SWEEP_M (default 1,8,16,24,32,48,64; "all": the bench's M = 1, 2, 4, ..., 8192), SWEEP_SUMMARY_M and SWEEP_NAME (default
# sweep-small: /tmp/<name>, $OUT/<name>.tar.gz) let s81-next/sweep-full.sh run the full sweep through this script.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
NAME=${SWEEP_NAME:-sweep-small}; MS=${SWEEP_M:-1,8,16,24,32,48,64}
S=/tmp/$NAME; rm -rf $S; mkdir -p $S
MFLAG=(--m "$MS"); [ "$MS" = all ] && MFLAG=()
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
(cmake -S . -B build-sweep -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
   -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-sweep -j 16 --target mixgemm-bench) > $S/build.log 2>&1 ||
  { tail -20 $S/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"; gzip $S/build.log
BENCH=build-sweep/tools/mixgemm-bench MIXGEMM_GIT_COMMIT=${MIXGEMM_GIT_COMMIT:-unknown} ITERS=20 WARMUP=3 \
TIME_LIMIT=${TIME_LIMIT:-$((540 - (SECONDS - T0) - 40))} SETTLE_MS=300 \
TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128,e4m3.u4b8.gch \
EXTRA="--baselines cublas_fp16,cublaslt_fp8,cublaslt_fp8_fast ${MFLAG[*]} --summary-m ${SWEEP_SUMMARY_M:-1,16,32,64}" \
  bash scripts/run_bench_h200.sh $S > $S/run.log 2>&1
echo "sweep rc=$? at $((SECONDS - T0)) s"
cp "$0" $S/command.sh; echo "# ran with SWEEP_M=$MS SWEEP_NAME=$NAME SWEEP_SUMMARY_M=${SWEEP_SUMMARY_M:-1,16,32,64}" >> $S/command.sh
python3 scripts/bar_status.py $S/bench.csv > $S/bars.md 2>&1
cd $S && tar czf "$OUT/$NAME.tar.gz" . && cd - > /dev/null
awk '/^\|/ { t = 1 } t && NF == 0 { exit } { print }' $S/bars.md  # the card line and the summary table (bar_status.py's card line since session 88)
