#!/usr/bin/env bash
# Prepared in session 58 (lower priority than ab_e4m3pair.sh): a `full` barrier per block of a paired stage
# (pairfull.patch; one `empty` per stage as in main), so a consumer starts on a stage's first block without waiting
# for the second. Where it can matter: a CTA's first stage (the ring fill at kernel start: the second block's bytes,
# ~0.25 us of one block round of every SM's weights at the copy bandwidth, before the consumers start), against one
# more barrier wait per two blocks (local SASS: 302 -> 306 instructions per two blocks, f16 256 x 64 g128; no
# spills). Expected within +-1%: run only with device time to spare. f16 / s8 g128, M = 24..128, 9 shapes, ABBA, with
# the Sm90 / GemmApi suites (f16.u4 / s8.u4 instances).
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,32,64,96,128 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_TEST_FILTER='Sm90.*:GemmApi.*' AB_SANITIZE=0
bash scripts/device_sm90_multi.sh "$D/pairfull.patch"
