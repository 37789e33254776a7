#!/usr/bin/env bash
# Session 68 call 2 (check + held-out A/B) on the working tree of .s68/commit.txt plus the narrow-layer model (smallm's
# narrow model against sm90's scaled ranked time at 32 < M <= 64 on stripe-aligned layers) and the smaller-ring tie
# (smallm_default_config: same cut C <= 3/4 of the SMs, the larger o wins). .s68/nonarrow.patch (applied here only) adds
# MIXGEMM_X_NONARROW=1 and MIXGEMM_X_NORINGTIE=1, which together restore a68eb6c's picks.
#  1. build the GPU tests and the bench (sm90 f16 / bf16 / s8 / e4m3 x u4: 128x64, 256x64, 128x128, 128x256);
#  2. GemmApi.* / Smallm.* / SmallmHost.* (NaN-poisoned, CPU reference);
#  3. mixgemm-bench --verify of the heuristic's picks on narrow layers at M = 1, 8, 16, 33..64, six type configs;
#  4. held-out layers (in no fit): the picks new vs old (env) in CUDA graphs (twice, alternating) and event-timed,
#     f16 / bf16 / s8 / e4m3 x u4b8 g128, M = 1, 4, 8, 16, 33, 40, 48, 56, 64.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; W=/tmp/c2; mkdir -p $W
git apply .s68/nonarrow.patch || exit 1
t0=$SECONDS
( cmake -S . -B build-c2 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
    "-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk,128x256_1x1x1_coop_splitk" \
    -DMIXGEMM_BUILD_PYTHON=OFF &&
  cmake --build build-c2 -j "$(nproc)" --target mixgemm_gpu_tests mixgemm-bench ) > "$W/build.log" 2>&1 ||
  { tail -30 "$W/build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
C=$(cat .s68/commit.txt)
B=(build-c2/tools/mixgemm-bench --no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$C")
H=(--shapes none --shape 1280x3072 --shape 640x3072 --shape 960x5120 --shape 1792x4096 --shape 3584x4096
   --shape 2560x5120 --shape 1536x8192 --shape 1024x4096
   --types f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --m 1,4,8,16,33,40,48,56,64)
for run in new1 old1 new2 old2; do
  env=(); case $run in old*) env=(MIXGEMM_X_NONARROW=1 MIXGEMM_X_NORINGTIE=1);; esac
  env "${env[@]}" timeout 90 "${B[@]}" --iters 50 --warmup 3 "${H[@]}" --graph-batch 32 --csv "$W/held-$run-graph.csv" > "$W/held-$run-graph.txt" 2>&1
  echo "held $run graph rc=$? at $((SECONDS - t0)) s"
done
for run in new old; do
  env=(); [ $run = old ] && env=(MIXGEMM_X_NONARROW=1 MIXGEMM_X_NORINGTIE=1)
  env "${env[@]}" timeout 60 "${B[@]}" --iters 50 --warmup 3 "${H[@]}" --csv "$W/held-$run-event.csv" > "$W/held-$run-event.txt" 2>&1
  echo "held $run event rc=$? at $((SECONDS - t0)) s"
done
"${B[@]:0:1}" --plan "${H[@]}" > "$W/held-plan-new.csv" 2>&1
MIXGEMM_X_NONARROW=1 MIXGEMM_X_NORINGTIE=1 "${B[@]:0:1}" --plan "${H[@]}" > "$W/held-plan-old.csv" 2>&1
(cd $W && tar czf "$OUT/c2-held.tar.gz" *.csv *.txt)
timeout 170 build-c2/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.*:Smallm.*:SmallmHost.*' > "$W/gtest.log" 2>&1
echo "gtest rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$W/gtest.log" | tr '\n' ' ') at $((SECONDS - t0)) s"
timeout 120 "${B[@]}" --verify --iters 3 --warmup 1 --shapes none --shape 768x4096 --shape 1152x3584 --shape 1536x4096 \
  --shape 1024x8192 --shape 2048x3584 --shape 960x5120 --m 1,8,16,33,40,47,48,56,64 \
  --types f16.u4b8.g128,bf16.u4b8.g128,f16.u4.g128,s8.u4b8.g128,s8.u4b8.gch,e4m3.u4b8.g128 --csv "$W/verify.csv" > "$W/verify.txt" 2>&1
echo "verify rc=$? at $((SECONDS - t0)) s"
python3 - "$W/verify.csv" <<'PY'
import csv, sys, collections
c = collections.Counter(); fam = collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    if r['kernel'] != 'mixgemm': continue
    c[(r['schedule'][:10], r['status'], r['verify'])] += 1
print('verify:', dict(c))
PY
git apply -R .s68/nonarrow.patch
cd $W && tar czf "$OUT/c2-check.tar.gz" verify.* gtest.log build.log && ls -la "$OUT"
