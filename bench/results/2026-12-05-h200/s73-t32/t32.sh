#!/usr/bin/env bash
# Session 73 (prepared, not run): narrow token tiles on sm90. At M = 17..32 the heuristic runs 256 x 64 on a half
# zero-padded token tile (the same wgmma work as M = 64: s65-sweep's M = 32 and 64 take the same time on the seed
# shape); at M <= 16 smallm. t32.patch (device only) adds, to the generator:
#   256 x 32 / 256 x 16 / 256 x 8: two consumer warpgroups of two m64 atoms (today's 256 x 64 structure), fewer tokens
#     (the 8-token tile stages its output with stmatrix.x2);
#   384 x 32 / 384 x 16 / 384 x 8: three consumer warpgroups of two atoms (512 threads, 128 registers at compile time,
#     152 by setmaxnreg): 12 converting warps per SM instead of 8, which the narrow tiles' small accumulators allow;
# and a line that keeps sm90_pick's picks main's (tiles of < 64 tokens only when forced); MIXGEMM_SM90_NARROW_SETS
# (accumulator chains per atom on the narrow tiles, default 1) is there for a later call. One build (with the GPU
# tests); --verify of every new tile; f16 / s8 / e4m3 u4b8 g128 on the seed + Llama-2-70B layers in CUDA graphs (32
# launches per replay): the new tiles forced at the M they cover (32: 1..32, 16: 1..16, 8: 1 / 8), 256 x 64 forced and
# the heuristic's pick (smallm at M <= 16), two rounds in mirrored order; then the Sm90 suites (they iterate the
# compiled schedules) with the time left.
#   bash bench/results/2026-12-05-h200/s73-t32/t32.sh                              (repo root, device; ~8 min, estimate)
#   SHAPES=llama3-8b,llama2-7b bash bench/results/2026-12-05-h200/s73-t32/t32.sh   (next, warm machine: reuses the build)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
D=bench/results/2026-12-05-h200/s73-t32
t0=$SECONDS; DEADLINE=${DEADLINE:-570}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
SHAPES=${SHAPES:-seed,llama2-70b}
W=/tmp/t32/${SHAPES//,/_}; rm -rf $W; mkdir -p $W
FIRST=1
if [ -x build-nt/tools/mixgemm-bench ] && [ -x build-nt/tests/mixgemm_gpu_tests ]; then
  echo "reusing build-nt (built with t32.patch by an earlier call): no verify, no tests"; FIRST=0
else
  git apply "$D/t32.patch" || exit 1
  S=256x64,256x32,256x16,256x8,384x32,384x16,384x8
  ( cmake -S . -B build-nt -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
      -DMIXGEMM_BUILD_PYTHON=OFF "-DMIXGEMM_SM90_SCHEDULES=$(echo $S | sed 's/\([0-9]*x[0-9]*\)/\1_1x1x1_coop_splitk/g')" &&
    timeout 300 cmake --build build-nt -j 16 --target mixgemm-bench mixgemm_gpu_tests ) > $W/build.log 2>&1
  git apply -R "$D/t32.patch"
  [ -x build-nt/tools/mixgemm-bench ] || { echo "build failed"; tail -30 $W/build.log; exit 1; }
fi
echo "built at $((SECONDS - t0)) s"
grep -h "spill" $W/build.log 2>/dev/null | grep -v " 0 bytes spill" | sort | uniq -c | head -8
B=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$(cat $D/commit.txt)" --iters 30 --warmup 3
   --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --shapes "$SHAPES" --m 1,8,16,24,32)
run() {  # $1 stem, rest: flags
  local s=$1; shift; local lim; lim=$(left 20); [ "$lim" -gt 90 ] && lim=90
  timeout "$lim" build-nt/tools/mixgemm-bench "${B[@]}" "$@" --csv $W/$s.csv > $W/$s.log 2>&1; echo "$s rc=$? at $((SECONDS - t0)) s"
}
sch() { echo "--schedule sm90_${1}_1x1x1_coop_splitk"; }
T64=($(sch 256x64)); T32=($(sch 256x32)); C32=($(sch 384x32))
T16=($(sch 256x16) --m 1,8,16); C16=($(sch 384x16) --m 1,8,16); T8=($(sch 256x8) --m 1,8); C8=($(sch 384x8) --m 1,8)
G=(--graph-batch 32)
if [ $FIRST = 1 ]; then
  V=(--verify --iters 3 --shapes seed --shape 8192x8192)
  run verify-t32 "${T32[@]}" "${V[@]}"; run verify-c32 "${C32[@]}" "${V[@]}"; run verify-t16 "${T16[@]}" "${V[@]}"
  run verify-c16 "${C16[@]}" "${V[@]}"; run verify-t8 "${T8[@]}" "${V[@]}"; run verify-c8 "${C8[@]}" "${V[@]}"
fi
run t32-r1 "${T32[@]}" "${G[@]}"; run c32-r1 "${C32[@]}" "${G[@]}"; run t64-r1 "${T64[@]}" "${G[@]}"; run heur-r1 "${G[@]}"
run t16-r1 "${T16[@]}" "${G[@]}"; run c16-r1 "${C16[@]}" "${G[@]}"; run t8-r1 "${T8[@]}" "${G[@]}"; run c8-r1 "${C8[@]}" "${G[@]}"
run c8-r2 "${C8[@]}" "${G[@]}"; run t8-r2 "${T8[@]}" "${G[@]}"; run c16-r2 "${C16[@]}" "${G[@]}"; run t16-r2 "${T16[@]}" "${G[@]}"
run heur-r2 "${G[@]}"; run t64-r2 "${T64[@]}" "${G[@]}"; run c32-r2 "${C32[@]}" "${G[@]}"; run t32-r2 "${T32[@]}" "${G[@]}"
if [ $FIRST = 1 ] && [ "$(left 60)" -gt 30 ]; then
  timeout "$(left 15)" build-nt/tests/mixgemm_gpu_tests \
    --gtest_filter='Sm90.W4W8A16_F16:Sm90.W4A8_S8:Sm90.W4A8_E4M3:Sm90.TailTokenTile:Sm90.TailSplit:Sm90.StreamK:Sm90.RealShapes' \
    > $W/tests.log 2>&1; echo "Sm90 tests rc=$? at $((SECONDS - t0)) s"
  grep -E "^\[  (PASSED|FAILED)|^\[       OK|^\[  FAILED|Failure" $W/tests.log | head -16
fi
cd $W && tar czf "$OUT/t32-${SHAPES//,/_}.tar.gz" *.csv *.log && cd - > /dev/null
python3 $D/t32_table.py $W | tee "$OUT/table.txt"
