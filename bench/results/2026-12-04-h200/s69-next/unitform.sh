#!/usr/bin/env bash
# The device A/B of the unit form (docs/design-smallm.md "The unit form", docs/design-sm90.md "The unit form"):
# smallm (M <= 16 here) and the sm90 block-issue tiles (M = 32..256 here), f16 / bf16 x u4b8 with group scales.
# Prepared in session 69, rebuilt on main in session 70 behind two switches that default to 0. Run from the
# repository root on main; two calls on one warm machine (the build dirs persist between them):
#   bash bench/results/2026-12-04-h200/s69-next/unitform.sh 1   # ~8 min: both builds, the GPU suites with the
#                                                               # unit form (correctness: decides a merge)
#   bash bench/results/2026-12-04-h200/s69-next/unitform.sh 2   # ~8 min: memcheck, two CUDA-graph A/B pairs, two
#                                                               # event-timed pairs (EVENT=0 skips them), --verify
#   bash bench/results/2026-12-04-h200/s69-next/unitform.sh 3   # ~4 min: the 128 x 256 tile's GPTQ kernel (session
#                                                               # 71): graph pairs at M = 512, 1024, 2048, --verify
# base = main as built by default (both switches 0), cand = the same tree with -DMIXGEMM_SMALLM_UNIT_FORM=1
# -DMIXGEMM_SM90_UNIT_FORM=1 (and, since session 71, -DMIXGEMM_SM90_AWQ_KERNEL=1: the wide tile's u4 kernel, which
# no u4b8 row runs; TYPES=f16.u4.g128,bf16.u4.g128 MS=256,512,1024,2048 ... 3 times it). f16 x u4b8 g128 / per-channel and bf16 g128, M = 1, 8, 16, 64, 128, 256 on
# llama3-8b + seed + llama2-70b; sm90 built with its three block-issue tiles and the 128 x 256 tile (the same set
# on both sides: M = 256 runs the heuristic's pick, 128 x 256 on most of these layers). Phase 3: f16 / bf16 u4b8
# g128 at M = 512, 1024, 2048 (the 128 x 256 GPTQ kernel; MS=... TYPES=... override the M and type lists).
# Outputs: $OUT/uf<phase>.tar.gz; the geomeans cand / base per (type, M) last. TYPES=... replaces the type list (e.g.
# TYPES=f16.u4.g128 EVENT=0 bash ... 2: AWQ's u4 with zero points, graphs only, ~3 min).
set -uo pipefail
PHASE=${1:?usage: unitform.sh 1|2|3}
HERE=bench/results/2026-12-04-h200/s69-next
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
W=/tmp/uf; mkdir -p "$W"
t0=$SECONDS
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || cat "$HERE/commit.txt")
CF=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,f16.u8 -DMIXGEMM_BUILD_PYTHON=OFF
    "-DMIXGEMM_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk,128x128_1x1x1_coop_splitk,128x256_1x1x1_coop_splitk")
if [ "$PHASE" = 3 ]; then
  TYPES=${TYPES:-f16.u4b8.g128,bf16.u4b8.g128}; MS=${MS:-512,1024,2048}; EVENT=0
fi
BENCH=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "$COMMIT"
       --shapes llama3-8b,seed,llama2-70b --types "${TYPES:-f16.u4b8.g128,bf16.u4b8.g128,f16.u4b8.gch}"
       --m "${MS:-1,8,16,64,128,256}")
# Every step is bounded by the call's deadline (DEADLINE s after the start, 570 by default: inside the device's
# 600 s), so that the tar at the end always runs and what finished comes back. left N: seconds to the deadline
# less N (at least 1).
DEADLINE=${DEADLINE:-570}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
run_bench() {  # $1 side (base|cand), $2 stem, extra flags after
  local side=$1 stem=$2; shift 2
  local bin=build-uf/tools/mixgemm-bench; [ "$side" = base ] && bin=build-base/tools/mixgemm-bench
  local lim; lim=$(left 25); [ "$lim" -gt 120 ] && lim=120
  timeout "$lim" "$bin" "${BENCH[@]}" "$@" --csv "$W/$stem.csv" > "$W/$stem.txt" 2>&1
  echo "$stem rc=$? at $((SECONDS - t0)) s"
}
if [ "$PHASE" = 1 ]; then
  BL=$(left 200)  # the builds leave 200 s for the tests and the row
  ( cmake -S . -B build-uf "${CF[@]}" "-DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_UNIT_FORM=1 -DMIXGEMM_SM90_UNIT_FORM=1 -DMIXGEMM_SM90_AWQ_KERNEL=1" \
      && timeout "$BL" cmake --build build-uf -j 16 --target mixgemm-bench mixgemm_gpu_tests mixgemm-mma-rate ) \
    > "$W/build-uf.log" 2>&1 &
  p1=$!
  ( cmake -S . -B build-base "${CF[@]}" -DMIXGEMM_BUILD_TESTS=OFF \
    && timeout "$BL" cmake --build build-base -j 16 --target mixgemm-bench ) > "$W/build-base.log" 2>&1 &
  p2=$!
  wait $p1 || { echo "BUILD uf FAILED"; tail -20 "$W/build-uf.log"; }
  wait $p2 || { echo "BUILD base FAILED"; tail -20 "$W/build-base.log"; }
  echo "builds done at $((SECONDS - t0)) s"
  grep -h "spill" "$W"/build-*.log | grep -v " 0 bytes spill" | sort | uniq -c | head -5
  timeout "$(left 40)" build-uf/tests/mixgemm_gpu_tests \
    --gtest_filter='ConvertGpu.Unit*:Smallm.*:GemmApi.*:Sm90.UnitForm*:Sm90.W4W8A16_*:Sm90.RealShapes:-SmallmTiming.*' \
    > "$W/tests-uf.log" 2>&1
  echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$W/tests-uf.log" | tr '\n' ' ') at $((SECONDS - t0)) s"
  grep -E "^\[  FAILED" "$W/tests-uf.log" | head -10
  # the decode row in isolation: exact, without the scale multiply, the unit form (session 27's cases + 69's)
  lim=$(left 5); [ "$lim" -gt 60 ] && lim=60
  timeout "$lim" build-uf/tools/mixgemm-mma-rate > "$W/mma-rate.txt" 2>&1
  echo "mma-rate rc=$?"; grep -E "^row (f16.u4b8.g|f16.u4b8 no|\+ ldmatrix B \+ scale|unit)" "$W/mma-rate.txt" | head -12
else
  if [ "$PHASE" = 2 ]; then
    lim=$(left 400); [ "$lim" -gt 100 ] && lim=100
    timeout "$lim" compute-sanitizer --tool memcheck build-uf/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' \
      > "$W/memcheck.log" 2>&1
    echo "memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$W/memcheck.log" | tail -1) at $((SECONDS - t0)) s"
  fi
  run_bench base gr-base1 --iters 30 --warmup 3 --graph-batch 32
  run_bench cand gr-cand1 --iters 30 --warmup 3 --graph-batch 32
  run_bench cand gr-cand2 --iters 30 --warmup 3 --graph-batch 32
  run_bench base gr-base2 --iters 30 --warmup 3 --graph-batch 32
  if [ "${EVENT:-1}" != 0 ]; then
    run_bench base ev-base1 --iters 30 --warmup 5
    run_bench cand ev-cand1 --iters 30 --warmup 5
    run_bench cand ev-cand2 --iters 30 --warmup 5
    run_bench base ev-base2 --iters 30 --warmup 5
  fi
  run_bench cand verify --iters 3 --warmup 1 --verify
  python3 - "$W/verify.csv" <<'PY'
import csv, sys, collections
c = collections.Counter((r['schedule'][:10], r['status'], r['verify']) for r in csv.DictReader(open(sys.argv[1])) if r['kernel'] == 'mixgemm')
print('verify:', dict(c))
PY
fi
python3 - "$W" <<'PY'
import csv, sys, os, math, collections
W = sys.argv[1]
def load(stem):
    p = os.path.join(W, stem + '.csv')
    if not os.path.exists(p): return {}
    return {(r['shape'], r['type_spec'], r['M']): (float(r['us_median']), r['schedule'])
            for r in csv.DictReader(open(p)) if r['kernel'] == 'mixgemm'}
for mode, pairs in (('graph', [('gr-base1', 'gr-cand1'), ('gr-base2', 'gr-cand2')]),
                    ('event', [('ev-base1', 'ev-cand1'), ('ev-base2', 'ev-cand2')])):
    ratios, fam = collections.defaultdict(list), {}
    for b, c in pairs:
        B, C = load(b), load(c)
        for k in B:
            if k in C:
                ratios[(k[1], int(k[2]))].append(math.log(C[k][0] / B[k][0]))
                fam[(k[1], int(k[2]))] = C[k][1].split('_')[0]
    for (t, m), l in sorted(ratios.items()):
        print(f'{mode} {t:16s} M={m:<4d} {fam[(t, m)]:7s} cand/base geomean {math.exp(sum(l) / len(l)):.4f} '
              f'(min {math.exp(min(l)):.3f}, max {math.exp(max(l)):.3f}) over {len(l)}')
PY
cd "$W" && tar czf "$OUT/uf$PHASE.tar.gz" ./*.csv ./*.txt ./*.log 2>/dev/null
echo "total $((SECONDS - t0)) s"
