#!/usr/bin/env bash
# Session 31 call 3: call 2's A/B again with the exchange fixed (predicated loads / stores instead of branches, which
# had serialized the epilogue's loads): exch and exchstream (+ arrive-first on every streamed tile) against main;
# builds, Sm90 / GemmApi suites, memcheck / racecheck of Sm90Sanitize*, bench base v1 v2 v2 v1 base at
# M = 128 / 192 / 256 / 512, 12 layers, f16 / s8 / e4m3 g128.
S=${S:-.s31}
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=128,192,256,512 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0 \
  AB_TEST_FILTER='Sm90.*:GemmApi.*:-Sm90Timing.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*'
timeout 420 bash scripts/device_sm90_multi.sh $S/exch.patch $S/exchstream.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
