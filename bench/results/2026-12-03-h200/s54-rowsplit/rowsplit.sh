#!/usr/bin/env bash
# Session 54 call 1: the row split's candidates timed directly on main (tail-box kernels, session 53's 8-bit refit):
# at every M, one launch (MIXGEMM_ROW_SPLIT=0, the heuristic's pick), and the two-launch split at head M - M % 256
# and M - M % 128 (mixgemm-bench --row-split-at, each slice forced to its own one-launch pick), in the order
# one s256 s128 s128 s256 one, f16 / s8 / e4m3 x u4b8 g128, Llama-2-7B, Llama-3-8B, Llama-2-70B, seed.
# Writes $OUT/rowsplit.tar.gz and prints one line per run.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
S=${S:-.s54}; OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/rowsplit; rm -rf $R; mkdir -p $R; T0=$SECONDS
cp $S/commit.txt $S/rowsplit.sh $R/
cmake -S . -B build-rs -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
  -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF > $R/build.log 2>&1 &&
  cmake --build build-rs -j 16 --target mixgemm-bench >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -20 $R/build.log; exit 2; }
echo "build done at $((SECONDS-T0)) s"
B=build-rs/tools/mixgemm-bench
MS=${RS_MS:-160,192,224,288,320,352,384,416,448,480,544,576,640,704,800,896,1088,1152,1312,1400,1600,2112,2624,3136}
run() {  # $1 stem, $2.. extra flags
  local stem=$1; shift
  MIXGEMM_ROW_SPLIT=0 timeout 170 $B --shapes ${RS_SHAPES:-llama2-7b,llama3-8b,llama2-70b,seed} --m $MS \
    --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 ${RS_EXTRA:-} \
    --no-baselines --iters 20 --warmup 3 --settle-ms 0 "$@" \
    --csv $R/$stem.csv --git-commit "$(cat $S/commit.txt)" --summary-m none --quiet > $R/$stem.txt 2>&1
  echo "$stem rc=$? $(($(wc -l < $R/$stem.csv) - 1)) rows at $((SECONDS-T0)) s"
}
run one1
run s256a --row-split-at 256
run s128a --row-split-at 128
run s128b --row-split-at 128
run s256b --row-split-at 256
run one2
gzip $R/build.log
tar czf $OUT/rowsplit.tar.gz -C /tmp rowsplit
echo "total $((SECONDS-T0)) s"
[ -n "${RS_NO_VERIFY:-}" ] && exit 0
# The split's slices checked against the CPU reference (the bench's pointer arithmetic for the tail slice).
MIXGEMM_ROW_SPLIT=0 timeout 150 $B --shapes llama2-7b --m 320,200 --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 \
  --no-baselines --iters 2 --warmup 1 --settle-ms 0 --row-split-at 128 --verify --verify-rows 32 --csv $R/verify.csv --summary-m none \
  --quiet > $R/verify.txt 2>&1
echo "verify rc=$? $(grep -c ',pass' $R/verify.csv) pass rows; $(grep -ci 'fail' $R/verify.csv) failing"
tar czf $OUT/verify.tar.gz -C /tmp rowsplit/verify.csv rowsplit/verify.txt
