#!/usr/bin/env bash
# Prepared in session 64 (not run): every sm90 tile (128 x 64, 128 x 128, 128 x 256, 256 x 64) and smallm schedule for
# one type (ALLSCHED_TYPES, default f16.u4b8.g128; its sm90 instance type ALLSCHED_SM90_TYPES, default f16.u4) on
# main after session 64's exact tail box on the 128- and 64-token tiles: the data for refitting the 16-bit sm90 time
# model (kModelA16, session 2's block times: 1.25-1.7x the measured time at M = 24..128, session 63) and for
# checking the 8-bit one (kModelS8, session 32 / 53) now that a padded 128-token tile no longer pays the zero fill
# (128 x 128 at M = 160 0.79x f16 / 0.87x s8, s64-tailbox/). Event-timed at M = 24..768 with the tails the box changed
# (144 / 160 / 192 / 224 / 320), in CUDA graphs of 32 launches at M = 24..128; 13 layers. Outputs
# $OUT/TAG-event.csv.gz, TAG.csv.gz, TAG-plan.csv. ~7-8 min per type (session 63 estimated ~6-7 min for 12 event M; watch the 600 s call limit).
#   copy this folder to .s65/, set .s65/commit.txt to HEAD, then: bash .s65/allsched_sm90.sh [TAG]   (carry .s65)
#   s8: ALLSCHED_TYPES=s8.u4b8.g128 ALLSCHED_SM90_TYPES=s8.u4 bash .s65/allsched_sm90.sh s8all
TAG=${1:-f16all}
ALLSCHED_SM90_TYPES=${ALLSCHED_SM90_TYPES:-f16.u4} ALLSCHED_SM90_SCHEDULES=all \
  ALLSCHED_TYPES=${ALLSCHED_TYPES:-f16.u4b8.g128} \
  ALLSCHED_SHAPES=llama3-8b,llama2-7b,llama2-70b,seed ALLSCHED_EVENT=1 \
  ALLSCHED_EVENT_MS=24,48,64,96,128,144,160,192,224,256,320,384,512,768 ALLSCHED_MS=24,32,48,64,96,128 \
  ALLSCHED_TIMEOUT=280 bash scripts/device_allsched.sh "$TAG"
