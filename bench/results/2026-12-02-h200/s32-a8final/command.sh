#!/usr/bin/env bash
# Session 32 call 6: the 8-bit pick candidates against main, heuristic picks, one run (base v2h v3 v3 v2h base).
# v2h: 8-bit ranks tiles by their own split above M = 128, e4m3 narrow-tile constants above M = 128 (call 5's v2 at M > 128).
# v3:  the same ranking with 8-bit block times measured at whole-tile points (kModelS8 / kModelE4M3 at every M).
AB_SM90_TYPES=s8.u4,e4m3.u4 AB_SHAPES=llama2-7b,llama3-8b,llama2-70b,seed \
AB_MS=80,96,112,128,160,192,224,256,320,384,512,768 AB_TYPES=s8.u4b8.g128,e4m3.u4b8.g128 AB_SETTLE_MS=0 \
  bash scripts/device_sm90_multi.sh .s32/v2h.patch .s32/v3.patch
