#!/usr/bin/env bash
# Session 89, second call's other-card branch (~9.5 min on an H100 from a fresh machine):
#   1. what a launch costs beyond its bytes on this card: the bench's --stream-read rows (an empty kernel of the decode
#      grid and a kernel that only reads the int4 weights + g128 scales, event-timed and 32 to a CUDA graph) on the seed
#      and the Llama-2-70B layers, with cuBLAS fp16 at M = 1 beside them; s89-graph's GEMM rows are the other side of
#      that comparison; bench capped at 120 s; $OUT/streamread.tar.gz.
#   2. #8's harness at batch 1, 8 and 32 (../../2026-12-05-h200/s84-next/e2e.sh: fp16 / w4a16 / w4a16-ps, compiled) with
#      what is left of TOTAL (default 560 s); $OUT/e2e.tgz.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s89-next/h100-rest2.sh     (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
O=${OUT:-$PWD/device-out}; mkdir -p "$O"
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS; TOTAL=${TOTAL:-560}
S=/tmp/streamread; mkdir -p $S
(cmake -S . -B build-sr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
   -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-sr -j 16 --target mixgemm-bench) > $S/build.log 2>&1 ||
  { tail -20 $S/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"; gzip $S/build.log; cp "$0" $S/command.sh
BENCH=build-sr/tools/mixgemm-bench MIXGEMM_GIT_COMMIT=${MIXGEMM_GIT_COMMIT:-unknown} ITERS=20 WARMUP=10 SETTLE_MS=300 VERIFY=0 \
TIME_LIMIT=120 SHAPES=seed,llama2-70b TYPES=f16.u4b8.g128 \
EXTRA="--m 1 --baselines-only --baselines cublas_fp16 --stream-read --summary-m 1" \
  bash scripts/run_bench_h200.sh $S > $S/run.log 2>&1
echo "stream-read rc=$? at $((SECONDS - T0)) s"
(cd $S && gzip -f bench.json bench.stderr.log 2>/dev/null; tar czf "$O/streamread.tar.gz" .)
OUT=$O/e2e E2E_BATCHES=1,8,32 timeout $(( TOTAL - (SECONDS - T0) )) bash bench/results/2026-12-05-h200/s84-next/e2e.sh
tar czf $O/e2e.tgz -C $O e2e; rm -rf $O/e2e
grep -h "stream_read\|launch_only" $S/bench.txt | head -24
