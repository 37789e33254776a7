#!/usr/bin/env bash
# Session 98: the mid-M bars of #4 (M = 128 / 256 / 512: 1.6 / 1.2 / 1.1x cuBLAS fp16) and #5 (M = 256: 2.0x cuBLAS fp16)
# in CUDA graphs, cuBLAS fp16 in the same graphs (32 launches per replay), cold L2, seed + Llama-2-70B, the six bar
# configs, --verify. The bars are read event-timed (session 86's sweep, ../../2026-12-06-h200/s86-sweep-full/); an
# engine's decode graphs reach these M too (vLLM captures batch sizes up to 512), and no graph-mode run of them exists
# on the H200. Information beside the bars, not a replacement for them. Uses the tree's full build (build/, as
# check91b.sh leaves it; run_bench_h200.sh builds it when missing). $OUT/midm.tar.gz; ~4 min with a built binary.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s98-next/graph_midm.sh     (repo root, device)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS; TOTAL=${TOTAL:-540}; S=/tmp/midm; rm -rf $S; mkdir -p $S
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tee "$S/gpu.txt"
cp "$0" $S/command.sh
MIXGEMM_GIT_COMMIT=${MIXGEMM_GIT_COMMIT:-unknown} ITERS=20 WARMUP=10 SETTLE_MS=300 \
TIME_LIMIT=$(( TOTAL - (SECONDS - T0) - 40 )) SHAPES=seed,llama2-70b \
TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128,e4m3.u4b8.gch \
EXTRA="--m 128,256,512 --graph-batch 32 --baselines cublas_fp16 --summary-m 128,256,512" \
  bash scripts/run_bench_h200.sh $S > $S/run.log 2>&1
echo "midm rc=$? at $((SECONDS - T0)) s"
python3 scripts/bar_status.py $S/bench.csv > $S/bars.md 2>&1
(cd $S && gzip -f bench.json bench.stderr.log 2>/dev/null; tar czf "$OUT/midm.tar.gz" .)
awk 'NF == 0 { exit } { print }' $S/bars.md
