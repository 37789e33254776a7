#!/usr/bin/env bash
# Session 31 call 5 (the last ~5 device minutes): the prepared 128 x 128 exchange (wip/sm90-exchange-narrow) against
# main, trimmed: f16.u4 + s8.u4 builds, Sm90.TwoPartExchange / TailSplit / StreamK / GemmApi.DeterministicBitwise,
# memcheck + racecheck of Sm90Sanitize.ExchangeSmall, bench base v1 v1 base at M = 128 (where 128 x 128 splits in
# two) on seed + Llama-2-70B, f16 / s8 g128.
S=${S:-.s31}
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b AB_MS=128 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=0 \
  AB_TEST_FILTER='Sm90.TwoPartExchange:Sm90.TailSplit:Sm90.StreamK:GemmApi.DeterministicBitwise' \
  AB_SANITIZE=1 AB_SANITIZE_FILTER='Sm90Sanitize.ExchangeSmall'
timeout 190 bash scripts/device_sm90_multi.sh $S/narrow.patch 2>&1 | grep -v "^bench " | grep -v "^llama\|^seed"
