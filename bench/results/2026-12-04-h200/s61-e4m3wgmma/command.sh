#!/usr/bin/env bash
# Session 61, call 6: smallm's TM 8 e4m3 rows on the fp8 register-A wgmma m64n8k32 (e4m3wgmma.patch; promotion
# into f32 per 64-k row; per-channel u4b8 as e5m2 A) against main's f16 mma.sync rows, with the variant's Smallm
# suites (every schedule, the M list, e4m3 at the P = 64 tolerance) and memcheck / racecheck of the new
# SmallmSanitize.E4M3Small. ABBA in CUDA graphs of 32 launches, then event-timed; e4m3 g128 / per-channel / u4 g128,
# f16 and s8 g128 as controls, M = 1 / 4 / 8 / 16, seed + Llama-2-70B + Llama-3-8B.
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b \
  AB_MS=1,4,8,16 AB_TYPES=e4m3.u4b8.g128,e4m3.u4b8.gch,e4m3.u4.g128,f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=50 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 40 --verify" AB_EVENT_TOO=1 \
  AB_TEST_FILTER='Smallm.*:SmallmHost*:SmallmSanitize*:GemmApi.Programmatic*' AB_SANITIZE=1 \
  AB_SANITIZE_FILTER='SmallmSanitize*'
bash scripts/device_sm90_multi.sh "$D/e4m3wgmma.patch"
