#!/usr/bin/env bash
# Session 58 call 3: the paired stages (main since 57818ee) against main without them (.s58/unpair.patch = the
# reverse of 57818ee's kernel change), ABBA, on the narrow tiles' range M = 24..128: bf16 g128, W8A16 (f16 x u8b128
# g128) and f16 per-channel, which ran it for the first time in s58-check, and f16 g128 again (a second machine
# than s57-pairstage's). The variant is the old code: read its ratio inverted.
export AB_SM90_TYPES=f16.u4,bf16.u4,f16.u8 AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,32,64,96,128 \
  AB_TYPES=f16.u4b8.g128,bf16.u4b8.g128,f16.u8b128.g128,f16.u4b8.gch
bash scripts/device_sm90_multi.sh .s58/unpair.patch
