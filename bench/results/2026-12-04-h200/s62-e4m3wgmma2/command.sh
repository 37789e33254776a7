#!/usr/bin/env bash
# Prepared in session 61 for the next session. Two variants of branch wip/smallm-e4m3-wgmma against main:
#   e4m3wgmma2.patch (6c0cb5c): TM 8 grouped e4m3 rows on the fp8 wgmma as measured in ../s61-e4m3wgmma/ (0.94-0.98x
#     main's time on grouped e4m3), with per-channel e4m3 back on the f16 path (there it lost 8-18%): the stage layout
#     and the f16 buffer follow the kernel-uniform scale mode;
#   e4m3wgmma3.patch (08b4255): + the A bytes in the f16 path's k order and the stage's activations permuted to match
#     once per chunk (a prmt per 4 bytes and a second chunk barrier; grouped row 229 -> 214 SASS instructions).
# Both compiled and CI-built locally only: this call runs each variant's Smallm suites, SmallmSanitize (memcheck /
# racecheck; E4M3Small has a grouped and a per-channel spec in one kernel) and every bench row verified.
# Questions: grouped e4m3 at or below 0.94-0.98? per-channel back at 1.00? does the permuted B pay for its barrier?
# f16 / s8 controls at 1.00? (M = 16 is TM 16, unchanged, left out.)
# Copy this folder to the session's .sN/ (carried), set .sN/commit.txt to HEAD, check the patches apply, then:
#   bash .sN/ab_e4m3wgmma2.sh        (~7 min; multi.tar.gz = graphs with --verify, event.tar.gz = event-timed)
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b \
  AB_MS=1,4,8 AB_TYPES=e4m3.u4b8.g128,e4m3.u4b8.gch,e4m3.u4.g128,f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=50 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 40 --verify" AB_EVENT_TOO=1 \
  AB_TEST_FILTER='Smallm.*:SmallmHost*:SmallmSanitize*:GemmApi.Programmatic*' AB_SANITIZE=1 \
  AB_SANITIZE_FILTER='SmallmSanitize*'
bash scripts/device_sm90_multi.sh "$D/e4m3wgmma2.patch" "$D/e4m3wgmma3.patch"
