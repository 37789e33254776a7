#!/usr/bin/env bash
# Session 90, any card: sm90's stream-K pick against split-K on the same tile. rowsplit90.sh (../../2026-12-06-h100/
# s90-rowsplit/) found the one launches that stream every tile (Sm90Split whole = 0) at up to 1.5-2.0x the time model's
# prediction where no other split is off by more than ~1.35x (f16 on 3584 x 18944 and Llama-3-405B qkv at tp 8,
# M = 1200..1800), and stream-all is what 70B qkv runs at the bar points M = 128 / 256. Suspected: a streamed CTA starts
# mid-K, so the CTAs stop walking K together and the operands the tiles share no longer stay in L2. Here every point of
# session 54's two grids (call 1: Llama-2-7B, Llama-3-8B, Llama-2-70B, seed, M = 160..3136; call 2: the held-out grid)
# and the bar shapes at M = 64..512 run as one launch (MIXGEMM_ROW_SPLIT=0), with the heuristic's split (auto) and with
# split-K forced on the same tile (MIXGEMM_SM90_SPLIT=splitk; the tile ranking is not affected), auto splitk splitk auto,
# f16 / s8 / e4m3 x u4b8 g128, 20 iterations, cold L2, event-timed. Points whose pick does not stream are the control.
# ~5 min from a fresh machine; $OUT/streamk.tar.gz.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-06-h200/s90-next/streamk90.sh      (repo root, device)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/streamk; rm -rf $R; mkdir -p $R; T0=$SECONDS
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tee $R/gpu.txt
cp "$0" $R/command.sh
cmake -S . -B build-rs -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
  -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF > $R/build.log 2>&1 &&
  cmake --build build-rs -j 16 --target mixgemm-bench >> $R/build.log 2>&1 || { echo BUILD FAILED; tail -20 $R/build.log; exit 2; }
echo "build done at $((SECONDS-T0)) s"; gzip $R/build.log
B=build-rs/tools/mixgemm-bench
declare -A SH MS
SH[c1]="--shapes llama2-7b,llama3-8b,llama2-70b,seed"
MS[c1]=160,192,224,288,320,352,384,416,448,480,544,576,640,704,800,896,1088,1152,1312,1400,1600,2112,2624,3136
SH[c2]="--shapes llama3-405b --tp 8 --shape 15360x5120 --shape 5120x5120 --shape 27648x5120 --shape 5120x13824 --shape 37888x3584 --shape 3584x18944 --shape 59136x8192 --shape 8192x29568"
MS[c2]=272,336,400,464,528,600,672,736,832,960,1200,1500,1800,2200,2700,3300
SH[bar]="--shapes seed,llama2-70b"
MS[bar]=64,96,128,192,256,384,512
for grid in c1 c2 bar; do
  for run in auto1 splitk1 splitk2 auto2; do
    mode=${run%?}
    MIXGEMM_ROW_SPLIT=0 MIXGEMM_SM90_SPLIT=$mode timeout 150 $B ${SH[$grid]} --m ${MS[$grid]} \
      --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --no-baselines --iters 20 --warmup 3 --settle-ms 0 \
      --csv $R/$grid-$run.csv --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --summary-m none --quiet > $R/$grid-$run.txt 2>&1
    echo "$grid $run rc=$? $(($(wc -l < $R/$grid-$run.csv) - 1)) rows at $((SECONDS-T0)) s"
  done
done
tar czf $OUT/streamk.tar.gz -C /tmp streamk
echo "total $((SECONDS-T0)) s"
