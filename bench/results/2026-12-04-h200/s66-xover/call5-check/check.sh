#!/usr/bin/env bash
# Session 66 call 5: the tree after the crossover and W8A16 ranking changes (host code only): build the GPU tests and
# the bench for the type configs whose picks moved (f16.u4, bf16.u4, s8.u4, f16.u8 sm90 instances; smallm: all), run the
# API suites (GemmApi: through the dispatcher, NaN-poisoned, against the CPU reference) and verify the moved picks'
# outputs with mixgemm-bench --verify (heuristic plans, narrow-N layers at M = 17..32, W8A16 at M = 24..64).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; t0=$SECONDS
cmake -S . -B build-s66 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,f16.u8 \
  -DMIXGEMM_BUILD_PYTHON=OFF > "$OUT/build.log" 2>&1 &&
  cmake --build build-s66 -j 16 --target mixgemm_gpu_tests mixgemm-bench >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
timeout 200 build-s66/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.*' > "$OUT/gemmapi.log" 2>&1
echo "GemmApi rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/gemmapi.log" | tr '\n' ' ') at $((SECONDS - t0)) s"
B=(build-s66/tools/mixgemm-bench --verify --no-baselines --iters 5 --warmup 1 --settle-ms 0 --summary-m none --quiet
   --git-commit "$(cat .s66/commit.txt)")
timeout 150 "${B[@]}" --shapes none --shape 768x4096 --shape 1152x3584 --shape 1280x8192 --shape 1536x4096 \
  --shape 1920x5120 --shape 2304x16384 --shape 3584x18944 --m 17,20,24,28,32 \
  --types f16.u4b8.g128,bf16.u4b8.g128,f16.u4.g128,s8.u4b8.g128,s8.u4b8.gch,f16.u8b128.g128 --csv "$OUT/verify-xover.csv" \
  > "$OUT/verify-xover.txt" 2>&1
echo "verify-xover rc=$? at $((SECONDS - t0)) s"
timeout 150 "${B[@]}" --shapes seed,llama2-7b --tp 1 --shape 16384x6656 --m 24,48,64 \
  --types f16.u8b128.g128,f16.u8b128.gch --csv "$OUT/verify-w8.csv" > "$OUT/verify-w8.txt" 2>&1
echo "verify-w8 rc=$? at $((SECONDS - t0)) s"
python3 - "$OUT" <<'PY'
import csv, sys, collections
for f in ('verify-xover.csv', 'verify-w8.csv'):
    c = collections.Counter(); sched = collections.Counter()
    for r in csv.DictReader(open(f'{sys.argv[1]}/{f}')):
        if r['kernel'] != 'mixgemm': continue
        c[(r['status'], r['verify'])] += 1; sched[r['schedule'].split('_1x1')[0].rsplit('_p0', 1)[0]] += 1
    print(f, dict(c), dict(sched))
PY
