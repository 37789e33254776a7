#!/usr/bin/env bash
# Session 63, call 2: per-variant smallm kernels at TM >= 16 only, TM 8 keeping its one kernel of six chunk loops
# (hybrid.patch = branch wip/smallm-variant-kernels-tm16 against main). Call 1 (s63-variantkernels/) measured the
# per-variant kernels at every tile: TM 8 1.04-1.06x slower on the large f16 g128 layers (its row wait in a
# convergence region), TM 16 0.97-0.99x in graphs and 0.93-0.98x event-timed at M = 16. Here: M = 16 (TM 16),
# 32 (TM 32), 64 (TM 64, where smallm is picked), with the suites, the sanitizers and every bench row verified.
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b \
  AB_MS=16,32,64 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128,f16.u4b8.gch,f16.u4.g128 AB_SETTLE_MS=50 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 40 --verify" AB_EVENT_TOO=1 \
  AB_TEST_FILTER='Smallm.*:SmallmHost*:SmallmSanitize*:GemmApi.Programmatic*' AB_SANITIZE=1 \
  AB_SANITIZE_FILTER='SmallmSanitize*'
bash scripts/device_sm90_multi.sh "$D/hybrid.patch"
