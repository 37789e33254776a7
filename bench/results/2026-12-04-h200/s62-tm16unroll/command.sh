#!/usr/bin/env bash
# Session 62 call 4: TM 16's chunk loop (8 k-block rows) not unrolled (tm16unroll1) or unrolled by 2 (tm16unroll2)
# against main's full unroll. Call 3's ncu (../s62-ncu-marlin/) found main's TM 16 chunk unrolled into 1231 SASS
# instructions (154 per row, as many per weight as Marlin's loop and TM 8's 153-instruction row loop), with a third of
# its stall samples in instruction fetch under ncu's cold caches; session 5 had measured the unroll 2-4% faster at
# M = 16 on the kernel of its day. ABBA, M = 12 / 16 (TM 16), f16 / s8 g128 and e4m3 per-channel, 9 shapes, the
# heuristic's picks; CUDA graphs of 32 launches with --verify, then event-timed. No test suites (a loop-unroll change;
# --verify checks every row against the CPU reference).
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b \
  AB_MS=12,16 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.gch AB_SETTLE_MS=50 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 40 --verify" AB_EVENT_TOO=1
bash scripts/device_sm90_multi.sh "$D/tm16unroll1.patch" "$D/tm16unroll2.patch"
