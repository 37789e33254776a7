#!/usr/bin/env bash
# Session 91: every schedule of f16 / s8 x u4b8 g128 at decode (M = 1, 8, 16) on the Llama-2-70B and Llama-3-8B layers,
# with Marlin / QQQ and cuBLAS fp16 in the same run, in CUDA graphs (32 launches per replay), cold L2: is the
# heuristic's decode pick the fastest schedule on this card, and does any schedule close refs91's gap to Marlin on
# Llama-2-70B o (8192 x 8192)? Same carried binary as refs91.sh (.s91/bench-ref.xz).
#   bash bench/results/2026-12-06-h200/s91-next/allsched91.sh      (repo root, device; carry .s91; ~8 min)
source bench/results/2026-12-06-h200/s91-next/bench_ref_env.sh  # $OUT, t0, B (the bench), C (its commit)
nvidia-smi > "$OUT/raw/gpu.txt" 2>&1; grep -m1 -o "NVIDIA H[0-9]*[^|]*" "$OUT/raw/gpu.txt" | tee "$OUT/gpu.txt"
for t in f16.u4b8.g128 s8.u4b8.g128; do
  ref=--marlin; [ $t = s8.u4b8.g128 ] && ref=--qqq
  $B --shapes llama2-70b,llama3-8b --m 1,8,16 --types $t --all-schedules --baselines cublas_fp16 $ref --graph-batch 32 \
    --iters 15 --warmup 3 --settle-ms 30 --time-limit 230 --git-commit $C --csv "$OUT/allsched-$t.csv" \
    --json "$OUT/raw/allsched-$t.json" > "$OUT/raw/allsched-$t.txt" 2> "$OUT/raw/allsched-$t.stderr.log"
  echo "$t rc=$? at $((SECONDS - t0)) s: $(grep -c ',ok,' "$OUT/allsched-$t.csv") ok rows"
done
cp "$0" "$OUT/raw/command.sh"
(cd "$OUT" && tar czf raw.tar.gz raw && rm -rf raw)
echo "total $((SECONDS - t0)) s"
