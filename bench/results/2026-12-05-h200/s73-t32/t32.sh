#!/usr/bin/env bash
# Session 73 (prepared, not run): two-atom sm90 tiles with fewer tokens, 256 x 32, 256 x 16 and 256 x 8 (two m64 atoms
# per consumer warpgroup). At M = 17..32 the heuristic runs 256 x 64 on a half zero-padded token tile (the same wgmma work as
# M = 64: s65-sweep's M = 32 and 64 take the same time on the seed shape); at M <= 16 smallm. t32.patch (device only) adds
# the three schedules to the generator (the 8-token one stages its output with stmatrix.x2), MIXGEMM_SM90_NARROW_SETS (accumulator chains per atom on them: 1 or 2) and a line
# that keeps sm90_pick's picks main's (tiles of < 64 tokens only when forced). Two builds (sets 1 with the GPU tests,
# sets 2); --verify of the new tiles' rows; then f16 / s8 / e4m3 u4b8 g128 on the seed + Llama-2-70B layers in CUDA
# graphs (32 launches per replay): 256x32 (M = 1..32), 256x16 (M = 1..16) and 256x8 (M = 1 / 8), each with 1 and 2 sets, 256x64 forced and
# the heuristic's pick, two rounds in mirrored order; the Sm90 suites on the new tiles with the time left (every test
# iterates the compiled schedules).
#   bash bench/results/2026-12-05-h200/s73-t32/t32.sh   (repo root, device; ~9 min from a fresh machine, estimate)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
D=bench/results/2026-12-05-h200/s73-t32
t0=$SECONDS; DEADLINE=${DEADLINE:-570}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
SHAPES=${SHAPES:-seed,llama2-70b}   # a second call on the warm machine: SHAPES=llama3-8b,llama2-7b (reuses the builds)
W=/tmp/t32/${SHAPES//,/_}; rm -rf $W; mkdir -p $W
FIRST=1
if [ -x build-s1/tools/mixgemm-bench ] && [ -x build-s2/tools/mixgemm-bench ] && [ -x build-s1/tests/mixgemm_gpu_tests ]; then
  echo "reusing build-s1 / build-s2 (built with t32.patch by an earlier call): no verify, no tests"; FIRST=0
else
  git apply "$D/t32.patch" || exit 1
  CF=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 -DMIXGEMM_BUILD_PYTHON=OFF
      "-DMIXGEMM_SM90_SCHEDULES=256x64_1x1x1_coop_splitk,256x32_1x1x1_coop_splitk,256x16_1x1x1_coop_splitk,256x8_1x1x1_coop_splitk")
  ( cmake -S . -B build-s1 "${CF[@]}" && timeout 250 cmake --build build-s1 -j 10 --target mixgemm-bench mixgemm_gpu_tests ) \
    > $W/build-s1.log 2>&1 &
  ( cmake -S . -B build-s2 "${CF[@]}" -DMIXGEMM_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_NARROW_SETS=2 &&
    timeout 250 cmake --build build-s2 -j 6 --target mixgemm-bench ) > $W/build-s2.log 2>&1 &
  wait
  git apply -R "$D/t32.patch"
  for b in s1 s2; do [ -x build-$b/tools/mixgemm-bench ] || { echo "build $b failed"; tail -30 $W/build-$b.log; }; done
fi
echo "built at $((SECONDS - t0)) s"
grep -h "spill" $W/build-*.log 2>/dev/null | grep -v " 0 bytes spill" | sort | uniq -c | head -5
B=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$(cat $D/commit.txt)" --iters 30 --warmup 3
   --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --shapes "$SHAPES" --m 1,8,16,24,32)
run() {  # $1 build, $2 stem, rest: flags
  local b=$1 s=$2; shift 2; local lim; lim=$(left 20); [ "$lim" -gt 90 ] && lim=90
  timeout "$lim" build-$b/tools/mixgemm-bench "${B[@]}" "$@" --csv $W/$s.csv > $W/$s.log 2>&1; echo "$s rc=$? at $((SECONDS - t0)) s"
}
T32=(--schedule sm90_256x32_1x1x1_coop_splitk); T64=(--schedule sm90_256x64_1x1x1_coop_splitk)
T16=(--schedule sm90_256x16_1x1x1_coop_splitk --m 1,8,16); T8=(--schedule sm90_256x8_1x1x1_coop_splitk --m 1,8)
V=(--verify --iters 3 --shapes seed --shape 8192x8192)
if [ $FIRST = 1 ]; then
  run s1 verify32-s1 "${T32[@]}" "${V[@]}"; run s2 verify32-s2 "${T32[@]}" "${V[@]}"
  run s1 verify16-s1 "${T16[@]}" "${V[@]}"; run s2 verify16-s2 "${T16[@]}" "${V[@]}"
  run s1 verify8-s1 "${T8[@]}" "${V[@]}"; run s2 verify8-s2 "${T8[@]}" "${V[@]}"
fi
G=(--graph-batch 32)
run s1 t32-s1-r1 "${T32[@]}" "${G[@]}"; run s1 t64-s1-r1 "${T64[@]}" "${G[@]}"; run s2 t32-s2-r1 "${T32[@]}" "${G[@]}"
run s1 heur-s1-r1 "${G[@]}"; run s1 t16-s1-r1 "${T16[@]}" "${G[@]}"; run s2 t16-s2-r1 "${T16[@]}" "${G[@]}"
run s1 t8-s1-r1 "${T8[@]}" "${G[@]}"; run s2 t8-s2-r1 "${T8[@]}" "${G[@]}"
run s2 t8-s2-r2 "${T8[@]}" "${G[@]}"; run s1 t8-s1-r2 "${T8[@]}" "${G[@]}"
run s2 t16-s2-r2 "${T16[@]}" "${G[@]}"; run s1 t16-s1-r2 "${T16[@]}" "${G[@]}"; run s1 heur-s1-r2 "${G[@]}"
run s2 t32-s2-r2 "${T32[@]}" "${G[@]}"; run s1 t64-s1-r2 "${T64[@]}" "${G[@]}"; run s1 t32-s1-r2 "${T32[@]}" "${G[@]}"
if [ $FIRST = 1 ] && [ "$(left 60)" -gt 30 ]; then
  timeout "$(left 15)" build-s1/tests/mixgemm_gpu_tests \
    --gtest_filter='Sm90.W4W8A16_F16:Sm90.W4A8_S8:Sm90.W4A8_E4M3:Sm90.TailTokenTile:Sm90.TailSplit:Sm90.StreamK:Sm90.RealShapes' \
    > $W/tests.log 2>&1; echo "Sm90 tests rc=$? at $((SECONDS - t0)) s"
  grep -E "^\[  (PASSED|FAILED)|^\[       OK|^\[  FAILED|Failure" $W/tests.log | head -16
fi
cd $W && tar czf "$OUT/t32-${SHAPES//,/_}.tar.gz" *.csv *.log && cd - > /dev/null
python3 $D/t32_table.py $W | tee "$OUT/table.txt"
