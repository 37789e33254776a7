#!/usr/bin/env bash
# Session 54 call 5: mixgemm-bench --row-split-at after its slices moved to core::row_slice (4d861fc): both heads
# checked against the CPU reference (Llama-2-7B, M = 200 / 320 / 448, f16 / s8 / e4m3 g128; rows 0, M - 1 and 30
# random ones), and the one launch vs the splits on the seed shape once.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
S=${S:-.s54}; OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/verify; rm -rf $R; mkdir -p $R; T0=$SECONDS
cp $S/commit.txt $S/verify.sh $R/
cmake -S . -B build-vf -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
  -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF > $R/build.log 2>&1 &&
  cmake --build build-vf -j 16 --target mixgemm-bench >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -20 $R/build.log; exit 2; }
echo "build done at $((SECONDS-T0)) s"
for u in 256 128; do
  MIXGEMM_ROW_SPLIT=0 timeout 150 build-vf/tools/mixgemm-bench --shapes llama2-7b --m 200,320,448 \
    --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --no-baselines --iters 2 --warmup 1 --settle-ms 0 \
    --row-split-at $u --verify --verify-rows 32 --csv $R/verify$u.csv --summary-m none --quiet > $R/verify$u.txt 2>&1
  echo "verify --row-split-at $u rc=$? rows: $(python3 -c "
import csv,collections
print(dict(collections.Counter((x['status'],x['verify']) for x in csv.DictReader(open('$R/verify$u.csv')))))")"
done
gzip $R/build.log
tar czf $OUT/verify.tar.gz -C /tmp verify
echo "total $((SECONDS-T0)) s"
