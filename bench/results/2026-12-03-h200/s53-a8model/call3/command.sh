#!/usr/bin/env bash
# Session 53 call 3: every sm90 tile forced (each with the split the heuristic gives it) on main with the 256-token
# tile's exact tail box, at M between and on the token tiles, f16 / s8 / e4m3 x u4b8 g128, seed + Llama-2-70B +
# Llama-3-8B; and the heuristic's picks (row split on) in the same run. The data for pricing a partial 256-token
# tile in the time model. Writes $OUT/tiles.tar.gz and prints one line per run.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
S=${S:-.s53}; OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/tiles; rm -rf $R; mkdir -p $R; T0=$SECONDS
cp $S/commit.txt $R/
cmake -S . -B build-tiles -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
  -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF > $R/build.log 2>&1 &&
  cmake --build build-tiles -j 16 --target mixgemm-bench >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -20 $R/build.log; exit 2; }
echo "build done at $((SECONDS-T0)) s"
B=build-tiles/tools/mixgemm-bench
MS=${TILES_MS:-160,192,224,256,288,320,384,448,512,576,640,768}
run() {  # $1 stem, $2.. extra flags
  local stem=$1; shift
  timeout 120 $B --shapes seed,llama2-70b,llama3-8b --m $MS --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 \
    --no-baselines --lt-algos 4 --iters 20 --warmup 3 --settle-ms 0 "$@" \
    --csv $R/$stem.csv --git-commit "$(cat $S/commit.txt)" --summary-m none --quiet > $R/$stem.txt 2>&1
  echo "$stem rc=$? $(($(wc -l < $R/$stem.csv) - 1)) rows at $((SECONDS-T0)) s"
}
run heur
for t in 128x64 128x128 128x256 256x64; do run t$t --schedule sm90_${t}_1x1x1_coop_splitk; done
run heur2
tar czf $OUT/tiles.tar.gz -C /tmp tiles
echo "total $((SECONDS-T0)) s"
