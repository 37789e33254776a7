#!/usr/bin/env bash
# Session 73: a 256 x 32 sm90 tile (two m64 atoms per consumer warpgroup, 32 tokens) for M = 17..32, where the
# heuristic runs 256 x 64 on a zero-padded token tile (the same wgmma work as M = 64: s65-sweep's M = 32 and 64 take
# the same time on the seed shape). t32.patch (device only) adds the schedule to the generator and
# MIXGEMM_SM90_T32_SETS (accumulator chains per atom: 1 or 2). Two builds (sets 1 with the GPU tests, sets 2), the Sm90
# suites on the new tile (every test iterates the compiled schedules), then f16 / s8 / e4m3 u4b8 g128 at M = 24 / 32 on
# seed + Llama-2-70B + Llama-3-8B in CUDA graphs (32 launches per replay): 256x32 (sets 1, sets 2) against 256x64 and
# 128x64, interleaved A B B A, and the heuristic's pick (the patch keeps the picks main's: sm90_pick skips 32-token
# tiles); --verify on the new tile's rows (Llama-3-8B layers: the CPU reference of the larger ones is slow).
# ~8 min from a fresh machine (estimate: two builds ~150 s, tests ~60 s, 14 bench runs ~200 s).
#   bash bench/results/2026-12-05-h200/s73-t32/t32.sh   (from the repo root on the device)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; W=/tmp/t32; mkdir -p $W
D=bench/results/2026-12-05-h200/s73-t32
git apply "$D/t32.patch" || exit 1
t0=$SECONDS
TYPES="-DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4"
SCH="-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,256x32_1x1x1_coop_splitk"
( cmake -S . -B build-s1 -G Ninja -DCMAKE_BUILD_TYPE=Release $TYPES "$SCH" -DMIXGEMM_BUILD_PYTHON=OFF &&
  cmake --build build-s1 -j 10 --target mixgemm-bench mixgemm_gpu_tests ) > $W/build-s1.log 2>&1 &
( cmake -S . -B build-s2 -G Ninja -DCMAKE_BUILD_TYPE=Release $TYPES "$SCH" -DMIXGEMM_BUILD_PYTHON=OFF \
    -DMIXGEMM_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_T32_SETS=2 &&
  cmake --build build-s2 -j 6 --target mixgemm-bench ) > $W/build-s2.log 2>&1 &
wait
git apply -R "$D/t32.patch"
for b in s1 s2; do [ -x build-$b/tools/mixgemm-bench ] || { echo "build $b failed"; tail -30 $W/build-$b.log; }; done
echo "built at $((SECONDS - t0)) s"
timeout 150 build-s1/tests/mixgemm_gpu_tests --gtest_filter='Sm90.W4W8A16_F16:Sm90.W4A8_S8:Sm90.TailSplit:Sm90.TailTokenTile:Sm90.StreamK:Sm90.SplitKParts:Sm90.RealShapes' \
  > $W/tests.log 2>&1; echo "Sm90 tests rc=$? at $((SECONDS - t0)) s"; grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|Failure" $W/tests.log | head -12
B=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$(cat $D/commit.txt)" --iters 50 --warmup 3
   --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --shapes seed,llama2-70b,llama3-8b --m 24,32 --graph-batch 32)
run() { timeout 100 build-$1/tools/mixgemm-bench "${B[@]}" "${@:3}" --csv $W/$2.csv > $W/$2.log 2>&1 || echo "run $2 rc=$?"; }
run s1 verify-s1 --schedule sm90_256x32_1x1x1_coop_splitk --verify --iters 5 --shapes llama3-8b
run s2 verify-s2 --schedule sm90_256x32_1x1x1_coop_splitk --verify --iters 5 --shapes llama3-8b
echo "verified at $((SECONDS - t0)) s"
for r in 1 2; do
  order="s1 s2"; [ $r = 2 ] && order="s2 s1"
  for b in $order; do
    run $b t32-$b-r$r --schedule sm90_256x32_1x1x1_coop_splitk
    run $b t64-$b-r$r --schedule sm90_256x64_1x1x1_coop_splitk
  done
  echo "round $r at $((SECONDS - t0)) s"
done
run s1 t128x64 --schedule sm90_128x64_1x1x1_coop_splitk
run s1 heur
echo "timed at $((SECONDS - t0)) s"
cd $W && tar czf "$OUT/t32.tar.gz" *.csv *.log && cd - > /dev/null
python3 $D/t32_table.py $W | tee "$OUT/table.txt"
