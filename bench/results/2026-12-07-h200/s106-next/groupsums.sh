#!/usr/bin/env bash
# Session 106: the group scale on the f32 group sums (-DMIXGEMM_SMALLM_GROUP_SUMS=1, smallm_mainloop.cuh's fold_group)
# against main's per-weight scale, in one call: scripts/device_smallm_sched.sh builds both (f16 / bf16 x u4b8 with
# kScaleBlock take the experiment's path; the default build's SASS is main's), times the decode schedules forced on
# both builds (CUDA graphs of 32 launches; on a card that is not an H200, on a green context of 80 SMs, the H100
# stand-in of session 101), and runs the Smallm f16 / bf16 suites on the experiment build.
#   bash bench/results/2026-12-07-h200/s106-next/groupsums.sh   (repo root, device; ~5-6 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu"
EXTRA="--graph-batch 32"
case "$gpu" in *H200*) ;; *) EXTRA="$EXTRA --green-sms 80" ;; esac
echo "bench extra: $EXTRA"
F=-DMIXGEMM_SMALLM_GROUP_SUMS=1
SCHED_SHAPES=${SHAPES:-seed,llama2-70b} SCHED_MS=${MS:-1,8,16} SCHED_TYPES=${TYPES:-f16.u4b8.g128} \
SCHED_BENCH_EXTRA="$EXTRA" \
SCHED_TEST_FILTER='Smallm.W4A16_*:Smallm.W8A16_*:Smallm.ScalesAcrossBinades:Smallm.StreamShapes:Smallm.RealShape:Smallm.RingWrap' \
timeout ${LIMIT_S:-560} bash scripts/device_smallm_sched.sh \
  "o1|-|smallm_t8_w8_o1_p0" "w4o4|-|smallm_t8_w4_o4_p0" "t16|-|smallm_t16_w8_o1_p0" \
  "gs_o1|$F|smallm_t8_w8_o1_p0" "gs_w4o4|$F|smallm_t8_w4_o4_p0" "gs_t16|$F|smallm_t16_w8_o1_p0" 2>&1 | tail -60
