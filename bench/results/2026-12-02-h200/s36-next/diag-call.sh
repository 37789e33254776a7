#!/usr/bin/env bash
# Prepared in session 36, not run (the session's device time was spent). One call (~5 min) that bounds what an
# exchange whose partner half leaves the SM during the mainloop could gain on the two-part 128 x 256 tiles
# (docs/design-sm90.md, "What remains": the early-exchange scheme, ~10% on 70B o s8 at M = 256 by its cost model).
# Variants (branch wip/sm90-early-exchange-diag; the exchange tiles' RESULTS ARE WRONG in all three, timing only):
#   diag1: the partner half (64 KB per CTA) stored under the mainloop's last 16 blocks (zeros), not after it;
#   diag2: not stored at all (no egress: the bound);
#   diag3: stored under the mainloop and after it, as main does (the mainloop's cost of the early stores:
#          its s8 GPTQ block loop is 100 SASS instructions against main's 85).
# Read: main - diag1 (+ ~0.6 us for the scheme's narrow blocks) is what the scheme can buy; diag2 bounds it.
#   From the repository root on the device, this folder's diag*.patch copied into $S with `git rev-parse HEAD >
#   $S/commit.txt`, $S carried:
#   S=.s37 bash bench/results/2026-12-02-h200/s36-next/diag-call.sh
S=${S:-.s37}
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT
export AB_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 AB_SM90_SCHEDULES= AB_SHAPES=seed,llama2-70b AB_MS=256 \
  AB_TYPES=f16.u4b8.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128 AB_SETTLE_MS=150
timeout 540 bash scripts/device_sm90_multi.sh $S/diag1.patch $S/diag2.patch $S/diag3.patch 2>&1 | grep -v "^bench "
python3 scripts/ab_multi_summary.py /tmp/multi base diag1 diag2 diag3 > $OUT/summary.txt 2>&1
tar czf $OUT/multi.tar.gz -C /tmp multi
head -60 $OUT/summary.txt
