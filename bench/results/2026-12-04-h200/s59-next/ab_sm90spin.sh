#!/usr/bin/env bash
# Prepared in session 59 (lower priority than ab_testwait.sh; run after it): the sm90 consumers' stage waits
# (`full`, and e4m3's `tables`) as the in-line test_wait spin too (testwait_sm90spin.patch = testwait.patch plus
# Sm90Cta::wait_stage on ptx::mbar_spin_wait_parity). The sm90 kernels' try_wait loops have the same shape as the
# decode row's (31 of the f16 128 x 64 kernel's 86 TRYWAITs are followed by a far branch to a retry loop at the
# kernel's end), and the narrow tiles at M = 24..128 wait on `full` whenever the weight stream is behind. A spinning
# consumer warpgroup issues while it waits (the producer and the other consumer share its schedulers): it may lose.
# ABBA against main; f16 / s8 g128, M = 24..128 (the narrow tiles) and 256 (the wide tile: its consumers wait the same
# way), 9 shapes. Copy to .sN/, set commit.txt, check the patch applies, run: bash .sN/ab_sm90spin.sh
D=$(dirname "$0")
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=24,32,64,96,128,256 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128
bash scripts/device_sm90_multi.sh "$D/testwait_sm90spin.patch"
