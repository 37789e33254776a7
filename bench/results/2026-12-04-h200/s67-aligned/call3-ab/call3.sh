#!/usr/bin/env bash
# Session 67 call 3: smallm's stripe-aligned CTAs (working tree: make_geometry's C = stripes x ceil(sqrt(KBn)) where
# that is below C) against the old geometry in the same build and run (.s67/noalign.patch: MIXGEMM_X_NOALIGN=1 skips
# the new rule; an experiment switch applied here only). Every smallm schedule and the sm90 128 x 64 / 256 x 64 /
# 128 x 128 tiles, f16 / s8 / e4m3 x u4b8 g128, M = 1, 8, 16, 24, 32, 48, 64, on the narrow-N layers of calls 1-2 and
# Llama-3-8B's layers, event-timed and in CUDA graphs; then every schedule of the new geometry verified against the
# CPU reference on the narrow layers.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; W=/tmp/c3; mkdir -p $W
git apply .s67/noalign.patch || exit 1
t0=$SECONDS
( cmake -S . -B build-c3 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4,e4m3.u4 \
    "-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk" \
    -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF &&
  cmake --build build-c3 -j "$(nproc)" --target mixgemm-bench ) > "$W/build.log" 2>&1 || { tail -20 "$W/build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
C=$(cat .s67/commit.txt)
SH=(--shapes llama3-8b --shape 768x4096 --shape 1536x4096 --shape 1280x8192 --shape 1920x5120 --shape 1152x3584
    --shape 2304x16384 --shape 3072x4096 --shape 2304x3584 --shape 896x5120)
TY=(--types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128)
B=(build-c3/tools/mixgemm-bench --all-schedules --no-baselines --iters 20 --warmup 2 --settle-ms 0 --summary-m none --quiet
   --git-commit "$C" "${SH[@]}" "${TY[@]}" --m 1,8,16,24,32,48,64)
for geo in new old; do
  env=(); [ $geo = old ] && env=(MIXGEMM_X_NOALIGN=1)
  for mode in event graph; do
    extra=(); [ $mode = graph ] && extra=(--graph-batch 32)
    env "${env[@]}" timeout 150 "${B[@]}" "${extra[@]}" --csv "$W/$geo-$mode.csv" > "$W/$geo-$mode.txt" 2>&1
    echo "$geo $mode rc=$? at $((SECONDS - t0)) s"
  done
  env "${env[@]}" build-c3/tools/mixgemm-bench --plan "${SH[@]}" "${TY[@]}" --m 1,8,16,24,32,48,64 > "$W/$geo-plan.csv" 2>&1
done
timeout 150 build-c3/tools/mixgemm-bench --all-schedules --verify --no-baselines --iters 3 --warmup 1 --settle-ms 0 \
  --summary-m none --quiet --git-commit "$C" --shapes none --shape 768x4096 --shape 1152x3584 --shape 1280x8192 \
  --shape 1920x5120 --shape 896x5120 --shape 4096x4096 "${TY[@]}" --m 1,5,13,16,24,31,64 --csv "$W/verify.csv" > "$W/verify.txt" 2>&1
echo "verify rc=$? at $((SECONDS - t0)) s"
python3 - "$W/verify.csv" <<'PY'
import csv, sys, collections
c = collections.Counter()
for r in csv.DictReader(open(sys.argv[1])):
    if r['kernel'] == 'mixgemm': c[(r['schedule'].startswith('smallm'), r['status'], r['verify'])] += 1
print('verify (smallm?, status, verify):', dict(c))
PY
git apply -R .s67/noalign.patch
cd $W && tar czf "$OUT/c3.tar.gz" *.csv *.txt build.log && ls -la "$OUT"
