#!/usr/bin/env bash
# Session 67 call 4 (check + held-out A/B) on commit .s67/commit.txt (stripe-aligned smallm geometry, busiest-SM
# pricing, smallm to M = 32 on stripe-aligned layers). .s67/noalign.patch (applied here only) adds MIXGEMM_X_NOALIGN=1,
# which restores the old geometry and with it every old pick (the two heuristic changes key on the cut).
#  1. build the GPU tests and the bench (sm90: f16.u4, bf16.u4, s8.u4, e4m3.u4; smallm: all);
#  2. GemmApi.* (through the dispatcher, NaN-poisoned, CPU reference) and Smallm.* / SmallmHost.* (every smallm type
#     and schedule, ring wrap, graph replay; now on the stripe-cut geometry wherever the shapes are narrow);
#  3. mixgemm-bench --verify of the heuristic's picks on narrow layers, M = 1..32, six type configs;
#  4. held-out layers (not in calls 1-3): the heuristic's picks new vs old (env), in CUDA graphs (twice, alternating)
#     and event-timed, f16 / s8 / e4m3 x u4b8 g128, M = 1, 4, 8, 16, 20, 24, 32.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; W=/tmp/c4; mkdir -p $W
git apply .s67/noalign.patch || exit 1
t0=$SECONDS
( cmake -S . -B build-c4 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
    -DMIXGEMM_BUILD_PYTHON=OFF &&
  cmake --build build-c4 -j "$(nproc)" --target mixgemm_gpu_tests mixgemm-bench ) > "$W/build.log" 2>&1 ||
  { tail -30 "$W/build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
timeout 150 build-c4/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.*:Smallm.*:SmallmHost.*' > "$W/gtest.log" 2>&1
echo "gtest rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$W/gtest.log" | tr '\n' ' ') at $((SECONDS - t0)) s"
C=$(cat .s67/commit.txt)
B=(build-c4/tools/mixgemm-bench --no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$C")
timeout 110 "${B[@]}" --verify --iters 3 --warmup 1 --shapes llama3-8b --shape 768x4096 --shape 1152x3584 --shape 1280x8192 \
  --shape 1920x5120 --shape 2560x8192 --shape 4096x1792 --m 1,3,8,13,16,20,24,31,32 \
  --types f16.u4b8.g128,bf16.u4b8.g128,f16.u4.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128 --csv "$W/verify.csv" > "$W/verify.txt" 2>&1
echo "verify rc=$? at $((SECONDS - t0)) s"
python3 - "$W/verify.csv" <<'PY'
import csv, sys, collections
c = collections.Counter(); fam = collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    if r['kernel'] != 'mixgemm': continue
    c[(r['status'], r['verify'])] += 1; fam[r['schedule'][:6]] += 1
print('verify:', dict(c), dict(fam))
PY
H=(--shapes none --shape 2560x8192 --shape 2048x3584 --shape 3584x4096 --shape 4096x1792 --shape 1024x8192
   --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --m 1,4,8,16,20,24,32)
for run in new1 old1 new2 old2; do
  env=(); case $run in old*) env=(MIXGEMM_X_NOALIGN=1);; esac
  env "${env[@]}" timeout 60 "${B[@]}" --iters 50 --warmup 3 "${H[@]}" --graph-batch 32 --csv "$W/held-$run-graph.csv" > "$W/held-$run-graph.txt" 2>&1
  echo "held $run graph rc=$? at $((SECONDS - t0)) s"
done
for run in new old; do
  env=(); [ $run = old ] && env=(MIXGEMM_X_NOALIGN=1)
  env "${env[@]}" timeout 40 "${B[@]}" --iters 50 --warmup 3 "${H[@]}" --csv "$W/held-$run-event.csv" > "$W/held-$run-event.txt" 2>&1
  echo "held $run event rc=$? at $((SECONDS - t0)) s"
done
git apply -R .s67/noalign.patch
cd $W && tar czf "$OUT/c4.tar.gz" *.csv *.txt *.log && ls -la "$OUT"
