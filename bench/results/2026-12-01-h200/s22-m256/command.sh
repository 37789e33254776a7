#!/usr/bin/env bash
# Session 22 call 4: where the time of the 128 x 256 tile goes at M = 256 (the #5 / #4 M = 256 bars):
# shapes chosen so that the split and the k-blocks per CTA differ (split from sm90_split, host-side):
#   16384x4096: 128 tiles x 64 blocks, no split     16384x8192: 128 tiles x 128 blocks, no split
#   8192x8192 (70B o): 64 tiles, split 2 -> 128 units x 64 blocks   8192x4096: 64 tiles, split 2 -> 128 x 32
#   32768x4096: 256 tiles (a wave + 124)
# s8 g128 and f16 g128, forced 128 x 256, no baselines but cuBLAS fp16 for the ratio.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
L=/tmp/s22m256; rm -rf $L; mkdir -p $L
t0=$SECONDS
(cmake -S . -B build-m256 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4,f16.u4 \
  -DMIXGEMM_SM90_SCHEDULES=128x256_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF &&
 cmake --build build-m256 -j 16 --target mixgemm-bench) > $L/build.log 2>&1 || { tail -20 $L/build.log; exit 1; }
echo "build $((SECONDS - t0)) s"
B=./build-m256/tools/mixgemm-bench
for r in 1 2; do
  $B --shape 16384x4096 --shape 16384x8192 --shape 8192x8192 --shape 8192x4096 --shape 32768x4096 \
    --m 128,256,512 --types s8.u4b8.g128,f16.u4b8.g128 --schedule sm90_128x256_1x1x1_coop_splitk \
    --baselines cublas_fp16 --iters 30 --warmup 3 --settle-ms 300 --csv $L/run$r.csv > $L/run$r.txt 2>&1
  echo "run $r rc=$? $((SECONDS - t0)) s"
done
cp .s22/call4.sh $L/command.sh
tar czf $OUT/m256.tar.gz -C /tmp s22m256
python3 - $L <<'PY'
import csv, sys, os
L = sys.argv[1]
rows = {}
for r in (1, 2):
    for x in csv.DictReader(open(os.path.join(L, f"run{r}.csv"))):
        if not x["us_median"]: continue
        rows.setdefault((x["shape"], int(x["M"]), x["type_spec"]), []).append(float(x["us_median"]))
for k in sorted(rows):
    v = rows[k]
    print(f"{k[0]:22s} M={k[1]:4d} {k[2]:16s} " + " ".join(f"{t:8.2f}" for t in v))
PY
echo "total $((SECONDS - t0)) s"
