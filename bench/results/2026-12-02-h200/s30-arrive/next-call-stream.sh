#!/usr/bin/env bash
# Session 30, device call 5 (the session's last device minutes): arrive-first on streamed tiles of every tile
# shape (wip/sm90-arrive-first-stream) against main (which has it on the wide tile only). Sm90 / GemmApi suites +
# memcheck / racecheck of Sm90Sanitize*; bench base v1 v1 base at M = 64 / 128 / 256, 9 layers, f16 / s8 / e4m3 g128.
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=64,128,256 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0 \
  AB_TEST_FILTER='Sm90.*:GemmApi.*:-Sm90Timing.*' AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize*'
timeout 215 bash scripts/device_sm90_multi.sh .s30/stream.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
