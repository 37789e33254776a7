#!/usr/bin/env bash
# Session 43's prepared call 2 (not run): each TM 8 schedule with and without the e4m3 group tables, in CUDA graphs,
# in one build pair of the patched tree (-DMIXGEMM_SMALLM_E4M3_TABLES=0 keeps the per-weight conversion). Answers
# whether the tables pay per schedule. With e4m3-tables.patch t8_w4_o4 has no room for tables (its two specs then run
# the same kernel: a noise control); with e4m3-tables-directb.patch it has (ring 8 rows). From the repository root:
#   patch -p1 < bench/results/2026-12-02-h200/s43-next/e4m3-tables-directb.patch && \
#     bash bench/results/2026-12-02-h200/s43-next/call-sched.sh
S="-DMIXGEMM_SMALLM_E4M3_TABLES=0"
SCHED_SHAPES=llama3-8b,llama2-70b,seed SCHED_MS=1,8 SCHED_TYPES=e4m3.u4b8.g128,e4m3.u4.g128 \
SCHED_BENCH_EXTRA="--graph-batch 32 --iters 40" SCHED_TEST_FILTER='Smallm.W4A8_E4M3:Smallm.StreamShapes' \
  bash scripts/device_smallm_sched.sh \
    "w8o1|$S|smallm_t8_w8_o1_p0" "w8o1-tab|-|smallm_t8_w8_o1_p0" \
    "w8o2|$S|smallm_t8_w8_o2_p0" "w8o2-tab|-|smallm_t8_w8_o2_p0" \
    "w4o2|$S|smallm_t8_w4_o2_p0" "w4o2-tab|-|smallm_t8_w4_o2_p0" \
    "w4o4|$S|smallm_t8_w4_o4_p0" "w4o4-tab|-|smallm_t8_w4_o4_p0"
