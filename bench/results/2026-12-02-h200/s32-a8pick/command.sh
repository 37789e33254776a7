#!/usr/bin/env bash
# Session 32 call 5: the 8-bit pick candidates against main, heuristic picks, one run (base v1 v2 v2 v1 base).
# v1: e4m3 time model (dearer narrow-tile blocks) + e4m3 ranks tiles by their own split above M = 128.
# v2: v1 + s8 ranks by its own split above M = 128 too.
AB_SM90_TYPES=s8.u4,e4m3.u4 AB_SHAPES=llama2-7b,llama3-8b,llama2-70b,seed \
AB_MS=32,64,96,128,160,192,224,256,320,384,512,768 AB_TYPES=s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0 \
  bash scripts/device_sm90_multi.sh .s32/v1.patch .s32/v2.patch
