#!/usr/bin/env bash
# Prepared in session 59 (not run: its device time ran out): a quick first look at testwait.patch with binaries built on
# the dev machine (~4 min each: cmake -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk
# -DMIXGEMM_BUILD_TESTS=OFF, target mixgemm-bench, copied to .sN/bin/mixgemm-bench-{base,testwait}; carry .sN/bin and
# this script, ~35 MB), so the call spends no device time on builds: ABBA, f16 / s8 / e4m3 g128, M = 1 / 4 / 8, seed +
# Llama-2-70B. Replace .s59 by the session's folder.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
b() { timeout 60 .s59/bin/mixgemm-bench-$1 --shapes seed,llama2-70b --m 1,4,8 \
  --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --no-baselines --iters 20 --warmup 3 --settle-ms 50 \
  --csv "$OUT/$1-$2.csv" --git-commit "$(cat .s59/commit.txt)" --summary-m none --quiet > "$OUT/$1-$2.txt" 2>&1; echo "$1-$2 rc=$?"; }
b base 1; b testwait 1; b testwait 2; b base 2
mkdir -p /tmp/m/multi && cp "$OUT"/*.csv /tmp/m/multi/
python3 scripts/ab_multi_summary.py /tmp/m/multi base testwait | grep -v "geomean M=" | head -60
