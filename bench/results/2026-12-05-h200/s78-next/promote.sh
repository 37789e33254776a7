#!/usr/bin/env bash
# Session 78: e4m3 promotion on the sm90 block-issue tiles (MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS, sm90_kernel_params.h).
# Two builds of the same tree, e4m3.u4 only: A = the default (a new wgmma chain every 2 blocks, P = 128), B = 0 (no
# promotion, the kernels before session 78).
#   1. A: Sm90.E4m3PromotionKeepsStepsAfterALargeBlock and every e4m3 suite; B: the promotion test alone, which must
#      FAIL there (the test can fail: one chain drops the steps after the large block).
#   2. A vs B timed in CUDA graphs (32 launches per replay), two rounds in mirrored order: the heuristic's picks for
#      e4m3 u4b8 g128 / per-channel at M = 16..128 (the block-issue tiles), and 256 x 16 forced at M = 1 / 8.
#   3. A: --verify on the seed and Llama-2-70B layers at M = 16..128 (auto promotion interval: 128 on these tiles).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s78-next/promote.sh    (repo root; ~9 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
W=$OUT/promote; mkdir -p $W
t0=$SECONDS; DEADLINE=${DEADLINE:-570}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
nvidia-smi --query-gpu=name --format=csv,noheader > $W/gpu.txt
cfg() {  # $1 dir, $2 promote blocks
  cmake -S . -B $1 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=e4m3.u4 -DMIXGEMM_BUILD_PYTHON=OFF \
    "-DCMAKE_CXX_FLAGS=-DMIXGEMM_SM90_E4M3_PROMOTE_BLOCKS=$2" "-DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_E4M3_PROMOTE_BLOCKS=$2 -Xptxas=-v"
}
( cfg build-pa 2 && cfg build-pb 0 ) > $W/cmake.log 2>&1 || { tail -20 $W/cmake.log; exit 2; }
( timeout 330 cmake --build build-pa -j 10 --target mixgemm-bench mixgemm_gpu_tests > $W/build-a.log 2>&1 ) &
( timeout 330 cmake --build build-pb -j 6 --target mixgemm-bench mixgemm_gpu_tests > $W/build-b.log 2>&1 ) &
wait
echo "built at $((SECONDS - t0)) s: A $(ls build-pa/tools/mixgemm-bench build-pa/tests/mixgemm_gpu_tests 2>/dev/null | wc -l)/2, B $(ls build-pb/tools/mixgemm-bench build-pb/tests/mixgemm_gpu_tests 2>/dev/null | wc -l)/2"
grep -h -A1 "Compiling entry.*ATypeE3E" $W/build-a.log | grep -o "[0-9]* bytes spill stores" | sort | uniq -c | sed 's/^/A ptxas: /'
T=build-pa/tests/mixgemm_gpu_tests
timeout $(left 300) $T --gtest_filter='Sm90.E4m3Promotion*:Sm90.W4A8_E4M3:Sm90.TailSplit:Sm90.StreamK:Sm90.SplitKParts:Sm90.TailTokenTile:Sm90.RealShapes:GemmApi.RowSplitW4A8MatchesReference' \
  > $W/tests-a.log 2>&1; echo "A tests rc=$? at $((SECONDS - t0)) s"; grep -E "^\[  (PASSED|FAILED)|promotion|no promotion" $W/tests-a.log | head -12
timeout 60 build-pb/tests/mixgemm_gpu_tests --gtest_filter='Sm90.E4m3Promotion*' > $W/tests-b.log 2>&1
echo "B promotion test rc=$? (must fail)"; grep -E "^\[  (PASSED|FAILED)|differ" $W/tests-b.log | cut -c1-220 | head -8
B=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --iters 30 --warmup 3
   --types e4m3.u4b8.g128,e4m3.u4b8.gch --shapes seed,llama2-70b,llama3-8b --graph-batch 32)
run() {  # $1 build dir, $2 stem, rest: flags
  local b=$1 s=$2; shift 2; local lim; lim=$(left 60); [ "$lim" -gt 100 ] && lim=100
  timeout "$lim" $b/tools/mixgemm-bench "${B[@]}" "$@" --csv $W/$s.csv > $W/$s.log 2>&1; echo "$s rc=$? at $((SECONDS - t0)) s"
}
for r in 1 2; do
  order=(pa pb); [ $r = 2 ] && order=(pb pa)
  for k in "${order[@]}"; do
    run build-$k heur-$k-r$r --m 16,24,32,48,64,96,128
    run build-$k t16-$k-r$r --m 1,8 --schedule sm90_256x16_1x1x1_coop_splitk
  done
done
timeout $(left 10) build-pa/tools/mixgemm-bench --no-baselines --quiet --verify --iters 3 --warmup 1 --graph-batch 0 \
  --types e4m3.u4b8.g128,e4m3.u4b8.gch --shapes seed,llama2-70b --m 16,32,64,128 --csv $W/verify-a.csv > $W/verify-a.log 2>&1
echo "verify rc=$? at $((SECONDS - t0)) s"; grep -ciE "VERIFY FAILED" $W/verify-a.log
cp "$0" $W/command.sh
python3 - "$W" <<'PY'
import csv, glob, math, os, sys
from collections import defaultdict
W = sys.argv[1]; t = defaultdict(list); sch = {}
for p in glob.glob(os.path.join(W, "*-r?.csv")):
    kind, build = os.path.basename(p).split("-")[:2]
    for r in csv.DictReader(open(p)):
        if r.get("kernel") not in (None, "", "mixgemm") or r["status"] != "ok" or not r["us_median"]: continue
        k = (kind, r["type_spec"], r["shape"], int(r["M"])); t[(build,) + k].append(float(r["us_median"])); sch[k] = r["schedule"]
g = defaultdict(list)
for k in sorted(sch):
    if ("pa",) + k in t and ("pb",) + k in t:
        a = sum(t[("pa",) + k]) / len(t[("pa",) + k]); b = sum(t[("pb",) + k]) / len(t[("pb",) + k])
        print(f"{k[0]:5} {k[1]:16} {k[2]:22} {k[3]:4} {sch[k]:32} A {a:8.2f} B {b:8.2f} A/B {a/b:6.3f}")
        g[(k[0], k[1], sch[k].split('_1x1')[0])].append(a / b)
print("\nA/B geomean per (run, type, schedule):")
for k, v in sorted(g.items()):
    print(f"  {k[0]:5} {k[1]:16} {k[2]:14} n={len(v):3} {math.exp(sum(map(math.log, v))/len(v)):6.3f} {min(v):6.3f}-{max(v):6.3f}")
PY
