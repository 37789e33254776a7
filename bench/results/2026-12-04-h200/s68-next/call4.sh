#!/usr/bin/env bash
# Session 68 call 4: e4m3 on narrow layers at M = 17..32 through the narrow-layer model (working tree) against the
# models' crossover (.s68/noe4m3.patch, device only: MIXGEMM_X_NOE4M3NARROW=1), same build and run, on eight narrow
# layers no earlier call timed; e4m3 x u4b8 g128 and per-channel, M = 17, 20, 24, 28, 32, CUDA graphs (two alternating
# runs per side) and event-timed; then the new picks verified against the CPU reference.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; W=/tmp/c4; mkdir -p $W
git apply .s68/noe4m3.patch || exit 1
t0=$SECONDS
( cmake -S . -B build-c4 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=e4m3.u4 \
    "-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk" \
    -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && cmake --build build-c4 -j "$(nproc)" --target mixgemm-bench ) \
  > "$W/build.log" 2>&1 || { tail -30 "$W/build.log"; git apply -R .s68/noe4m3.patch; exit 1; }
echo "built at $((SECONDS - t0)) s"
C=$(cat .s68/commit.txt)
B=(build-c4/tools/mixgemm-bench --no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$C")
H=(--shapes none --shape 1280x5120 --shape 1536x3584 --shape 896x4096 --shape 1920x4096 --shape 1024x5120
   --shape 640x4096 --shape 2304x5120 --shape 1152x4096 --types e4m3.u4b8.g128,e4m3.u4b8.gch --m 17,20,24,28,32)
for run in new1 old1 new2 old2; do
  env=(); case $run in old*) env=(MIXGEMM_X_NOE4M3NARROW=1);; esac
  env "${env[@]}" timeout 60 "${B[@]}" --iters 50 --warmup 3 "${H[@]}" --graph-batch 32 --csv "$W/held-$run-graph.csv" > /dev/null 2>&1
  echo "held $run graph rc=$? at $((SECONDS - t0)) s"
done
for run in new old; do
  env=(); [ $run = old ] && env=(MIXGEMM_X_NOE4M3NARROW=1)
  env "${env[@]}" timeout 40 "${B[@]}" --iters 50 --warmup 3 "${H[@]}" --csv "$W/held-$run-event.csv" > /dev/null 2>&1
  echo "held $run event rc=$? at $((SECONDS - t0)) s"
done
timeout 90 "${B[@]}" --verify --iters 3 --warmup 1 "${H[@]}" --csv "$W/verify.csv" > "$W/verify.txt" 2>&1
echo "verify rc=$? at $((SECONDS - t0)) s"
python3 - "$W/verify.csv" <<'PY'
import csv, sys, collections
c = collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    if r['kernel'] == 'mixgemm': c[(r['schedule'][:10], r['status'], r['verify'])] += 1
print('verify:', dict(c))
PY
git apply -R .s68/noe4m3.patch
cd $W && tar czf "$OUT/c4.tar.gz" *.csv *.txt build.log && ls -la "$OUT"
