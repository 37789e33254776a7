#!/usr/bin/env bash
# Session 77, prepared: the narrow token tiles on the H200 (s77-t32 ran on an H100, with t32.patch, whose tiles main now
# generates). f16 / s8 / e4m3 x u4b8 g128 on the 13 layers of s77-t32, CUDA graphs (32 launches per replay), two rounds
# in mirrored order: 256 x 16 / 256 x 32 / 256 x 64 / 128 x 64 forced at the M they cover, and the heuristic's pick.
# Questions: does the smallm / sm90 crossover at M <= 16 move (e4m3's 256 x 16 0.82-0.96x smallm at M = 1 / 8 on the
# large layers on the H100), does 256 x 32 beat 128 x 64 where the ranking picks 128 x 64 at M = 17..32, and does
# 256 x 32 with two token tiles beat the 64-token tiles at M = 48?
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s77-next/narrow-h200.sh    (repo root; ~7 min)
# Since session 79 it reuses sweep-small.sh's bench binary (build-sweep: every sm90 schedule of f16 / bf16 / s8 / e4m3
# x u4) when it is there, so on a warm machine it skips the build (~1.5 min), and prints narrow_h200_table.py's table.
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
W=/tmp/narrow-h200; rm -rf $W; mkdir -p $W
t0=$SECONDS; DEADLINE=${DEADLINE:-560}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
S=128x64,256x64,256x32,256x16
BIN=build-sweep/tools/mixgemm-bench
if [ ! -x $BIN ]; then
  BIN=build-nh/tools/mixgemm-bench
  ( cmake -S . -B build-nh -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 -DMIXGEMM_BUILD_TESTS=OFF \
      -DMIXGEMM_BUILD_PYTHON=OFF "-DMIXGEMM_SM90_SCHEDULES=$(echo $S | sed 's/\([0-9]*x[0-9]*\)/\1_1x1x1_coop_splitk/g')" &&
    timeout 300 cmake --build build-nh -j 16 --target mixgemm-bench ) > $W/build.log 2>&1
  [ -x $BIN ] || { echo "build failed"; tail -30 $W/build.log; exit 1; }
fi
echo "bench $BIN ready at $((SECONDS - t0)) s"
B=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --iters 30 --warmup 3
   --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --shapes seed,llama2-70b,llama3-8b,llama2-7b --m 1,8,16,24,32,48
   --graph-batch 32)
run() {  # $1 stem, rest: flags
  local s=$1; shift; local lim; lim=$(left 20); [ "$lim" -gt 120 ] && lim=120
  timeout "$lim" $BIN "${B[@]}" "$@" --csv $W/$s.csv > $W/$s.log 2>&1; echo "$s rc=$? at $((SECONDS - t0)) s"
}
sch() { echo "--schedule sm90_${1}_1x1x1_coop_splitk"; }
for r in 1 2; do
  order=(t16 t32 t64 w64 heur); [ $r = 2 ] && order=(heur w64 t64 t32 t16)
  for k in "${order[@]}"; do
    case $k in
      t16) run t16-r$r $(sch 256x16) --m 1,8,16 ;;
      t32) run t32-r$r $(sch 256x32) ;;
      t64) run t64-r$r $(sch 256x64) ;;
      w64) run w64-r$r $(sch 128x64) ;;
      heur) run heur-r$r ;;
    esac
  done
done
cd $W && tar czf "$OUT/narrow-h200.tar.gz" *.csv *.log && cd - > /dev/null
cp "$0" $W/command.sh 2>/dev/null; python3 bench/results/2026-12-05-h200/s77-next/narrow_h200_table.py $W | tail -45
