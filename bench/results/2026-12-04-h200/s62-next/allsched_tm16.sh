#!/usr/bin/env bash
# Prepared in session 62: every smallm schedule at M = 16 in CUDA graphs (f16 / s8 / e4m3 g128; Llama-3-8B, Llama-2-7B,
# Llama-2-70B layers, seed) after session 62 unrolled TM 16's chunk by 2 (its schedules 5-13% faster on the small layers,
# 0-2% on the large): the heuristic's TM 16 o1 / o2 ranking was timed in session 42 on the full unroll. Then
#   python3 bench/results/2026-12-02-h200/s42-allsched/analysis/gen_table.py allsched16.csv.gz  (kH200Graph rows)
#   python3 bench/results/2026-12-02-h200/s42-allsched/analysis/cmp.py PLAN.csv allsched16.csv.gz  (picks vs best)
# Run on the tree that is to be main (after the variant-kernel decision). ~3-4 min.
ALLSCHED_MS=16 bash scripts/device_allsched.sh allsched16
