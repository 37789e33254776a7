#!/usr/bin/env bash
# Session 59 call 4 (diagnostic): session 58's call 5 found plain TM 8 decode launches 5-13% slower (f16 g128
# M = 4 / 8) and 2-5% faster (s8 g128 M = 1 / 4) without the partial-sum branch (psnone.patch); ncu of the GEMM
# grid alone (s59-psbranch/) shows the variant 1-3% faster at both cache settings. Is the bench's difference in the
# handoff to the deferred reduction grid? The same A/B twice in one call: first with the in-kernel reduction
# (MIXGEMM_SMALLM_DEFER=0: one grid, no second launch), then with the default deferred grid (call 5 repeated).
set -uo pipefail
D=$(dirname "$0")
OUT=${OUT:-$PWD/device-out}
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk AB_SHAPES=seed,llama2-70b AB_MS=1,4,8 \
  AB_TYPES=s8.u4b8.g128,f16.u4b8.g128
mkdir -p "$OUT/inkernel" "$OUT/deferred"
MIXGEMM_SMALLM_DEFER=0 OUT=$OUT/inkernel bash scripts/device_sm90_multi.sh "$D/psnone.patch" > "$OUT/inkernel/log.txt" 2>&1
OUT=$OUT/deferred bash scripts/device_sm90_multi.sh "$D/psnone.patch" > "$OUT/deferred/log.txt" 2>&1
for m in inkernel deferred; do echo "== $m"; grep "geomean" "$OUT/$m/log.txt" | grep -v "geomean M="; done
