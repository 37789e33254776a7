#!/usr/bin/env bash
# Session 61, call 3. Call 2 (../s61-midtrigger/): letting the deferred reduction grid in after the CTA's first chunk
# (firsttrigger) was 0.965-1.02x main's time event-timed, 0.99-1.01x in CUDA graphs, and placement-insensitive
# event-timed (with psnone's moved loops within 2%). This call confirms it on more types and shapes, with the
# variant's GPU suites and sanitizers: base against firsttrigger, ABBA, CUDA graphs of 32 launches, then event-timed.
# f16 / bf16 / s8 / e4m3 g128 and f16 per-channel, M = 1 / 4 / 8 / 16, seed + Llama-2-70B + Llama-3-8B.
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b,llama3-8b \
  AB_MS=1,4,8,16 AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128,f16.u4b8.gch AB_SETTLE_MS=50 \
  AB_BENCH_EXTRA="--graph-batch 32 --iters 40" AB_EVENT_TOO=1 \
  AB_TEST_FILTER='Smallm*:SmallmHost*:GemmApi.Programmatic*:GemmGraph*' AB_SANITIZE=1 \
  AB_SANITIZE_FILTER='SmallmSanitize*:GemmApi.Programmatic*'
bash scripts/device_sm90_multi.sh "$D/firsttrigger.patch"
