#!/usr/bin/env bash
# Session 92: where mixgemm's decode launch loses to Marlin on Llama-2-70B o (session 91, ../../2026-12-06-h100/s91-refs/):
# the picks through gemm() against the same picks through gemm_partial_sums() (no reduction grid, no epilogue: the
# caller's next kernel adds the parts), Marlin, QQQ and a pure read of the weights, in CUDA graphs (32 launches per
# replay), cold L2, one process per pass on the card that comes. seed + Llama-2-70B + Llama-3-8B, M = 1, 8, 16,
# f16 / s8 x u4b8 g128. The carried bench is session 91's (.s91: Marlin + QQQ built in; decode kernels = today's).
#   bash bench/results/2026-12-06-h200/s92-next/psums92.sh      (repo root, device; carry .s91; ~4 min)
source bench/results/2026-12-06-h200/s91-next/bench_ref_env.sh  # $OUT, t0, B (the bench), C (its commit)
nvidia-smi > "$OUT/raw/gpu.txt" 2>&1; head -12 "$OUT/raw/gpu.txt" | grep -m1 -o "NVIDIA H[0-9]*[^|]*" | tee "$OUT/gpu.txt"
COMMON="--shapes ${PS_SHAPES:-seed,llama2-70b,llama3-8b} --m ${PS_M:-1,8,16} --types f16.u4b8.g128,s8.u4b8.g128 --iters 20 --warmup 5 --settle-ms 150 --graph-batch 32 --git-commit $C"
$B $COMMON --baselines cublas_fp16 --marlin --qqq --stream-read --time-limit ${PS_GEMM_S:-170} --csv "$OUT/gemm.csv" \
  --json "$OUT/raw/gemm.json" > "$OUT/raw/gemm.txt" 2> "$OUT/raw/gemm.stderr.log"
echo "gemm pass rc=$? at $((SECONDS - t0)) s"
$B $COMMON --no-baselines --partial-sums --time-limit ${PS_PSUMS_S:-100} --csv "$OUT/psums.csv" \
  --json "$OUT/raw/psums.json" > "$OUT/raw/psums.txt" 2> "$OUT/raw/psums.stderr.log"
echo "psums pass rc=$? at $((SECONDS - t0)) s"
cp "$0" "$OUT/raw/command.sh"
python3 bench/results/2026-12-06-h200/s92-next/psums_table.py "$OUT/gemm.csv" "$OUT/psums.csv" > "$OUT/table.txt" 2>&1
(cd "$OUT" && tar czf raw.tar.gz raw && rm -rf raw)
cat "$OUT/table.txt"; echo "total $((SECONDS - t0)) s"
