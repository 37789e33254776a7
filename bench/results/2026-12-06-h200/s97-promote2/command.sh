#!/usr/bin/env bash
# Session 78, second call (same machine as promote.sh): promotion every 2 blocks (A, P = 128) against none (B) and
# every 4 blocks (C, P = 256), e4m3.u4 builds of one tree.
#   1. A: the promotion test, W4A8_E4M3, and Sm90Sanitize.TypeConfigsSmall under compute-sanitizer memcheck;
#      B: the promotion test with MIXGEMM_TEST_PROMOTION_ALL=1 (checks the tiles that do not promote: must FAIL);
#      C: the promotion test.
#   2. A / B / C timed in CUDA graphs (32 launches per replay), two rounds in rotated order: the heuristic's picks for
#      e4m3 u4b8 g128 / per-channel at M = 24..128 on the seed, Llama-2-70B and Llama-3-8B layers.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s78-next/promote2.sh    (repo root; ~7 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
W=/tmp/promote2; rm -rf $W; mkdir -p $W
t0=$SECONDS; DEADLINE=${DEADLINE:-560}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
nvidia-smi --query-gpu=name --format=csv,noheader > $W/gpu.txt
cfg() {  # $1 dir, $2 promote blocks
  cmake -S . -B $1 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=e4m3.u4 -DMIXGEMM_BUILD_PYTHON=OFF \
    "-DCMAKE_CXX_FLAGS=-DMIXGEMM_SM90_E4M3_PROMOTE_BLOCKS=$2" "-DCMAKE_CUDA_FLAGS=-DMIXGEMM_SM90_E4M3_PROMOTE_BLOCKS=$2 -Xptxas=-v"
}
( cfg build-pa 2 && cfg build-pb 0 && cfg build-pc 4 ) > $W/cmake.log 2>&1 || { tail -20 $W/cmake.log; exit 2; }
for b in pa pb pc; do
  ( timeout 300 cmake --build build-$b -j 6 --target mixgemm-bench mixgemm_gpu_tests > $W/build-$b.log 2>&1 ) &
done
wait
echo "built at $((SECONDS - t0)) s: $(ls build-p?/tools/mixgemm-bench build-p?/tests/mixgemm_gpu_tests 2>/dev/null | wc -l)/6"
for b in pa pc; do
  grep -h -A1 "Compiling entry.*ATypeE3E" $W/build-$b.log | grep -o "[0-9]* bytes spill stores" | sort | uniq -c | sed "s/^/$b ptxas: /"
done
PF='Sm90.E4m3Promotion*'
lim=$(left 300); [ "$lim" -gt 120 ] && lim=120  # (session 78 ran `left 400` here: 1 s, A did not run)
timeout $lim build-pa/tests/mixgemm_gpu_tests --gtest_filter="$PF:Sm90.W4A8_E4M3" > $W/tests-a.log 2>&1
echo "A tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|promotion" $W/tests-a.log | cut -c1-200
MIXGEMM_TEST_PROMOTION_ALL=1 timeout 60 build-pb/tests/mixgemm_gpu_tests --gtest_filter="$PF" > $W/tests-b.log 2>&1
echo "B (PROMOTION_ALL=1) rc=$? (must fail)"; grep -E "^\[  (PASSED|FAILED)|differ" $W/tests-b.log | cut -c1-200 | head -14
timeout 60 build-pc/tests/mixgemm_gpu_tests --gtest_filter="$PF" > $W/tests-c.log 2>&1
echo "C rc=$?"; grep -E "^\[  (PASSED|FAILED)" $W/tests-c.log
timeout $(left 330) compute-sanitizer --tool memcheck --error-exitcode 1 build-pa/tests/mixgemm_gpu_tests \
  --gtest_filter='Sm90Sanitize.TypeConfigsSmall' > $W/memcheck-a.log 2>&1
echo "A memcheck rc=$? at $((SECONDS - t0)) s"; grep -E "ERROR SUMMARY|PASSED|FAILED|SKIPPED" $W/memcheck-a.log | head -4
B=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --iters 30 --warmup 3
   --types e4m3.u4b8.g128,e4m3.u4b8.gch --shapes seed,llama2-70b,llama3-8b --graph-batch 32 --m 24,32,48,64,96,128)
for r in 1 2; do
  order=(pa pb pc); [ $r = 2 ] && order=(pc pb pa)
  for k in "${order[@]}"; do
    lim=$(left 20); [ "$lim" -gt 90 ] && lim=90
    timeout $lim build-$k/tools/mixgemm-bench "${B[@]}" --csv $W/heur-$k-r$r.csv > $W/heur-$k-r$r.log 2>&1
    echo "heur-$k-r$r rc=$? at $((SECONDS - t0)) s"
  done
done
cp "$0" $W/command.sh
python3 - "$W" > $W/table.txt <<'PY'
import csv, glob, math, os, sys
from collections import defaultdict
W = sys.argv[1]; t = defaultdict(list); sch = {}
for p in glob.glob(os.path.join(W, "heur-*-r?.csv")):
    build = os.path.basename(p).split("-")[1]
    for r in csv.DictReader(open(p)):
        if r.get("kernel") not in (None, "", "mixgemm") or r["status"] != "ok" or not r["us_median"]: continue
        k = (r["type_spec"], r["shape"], int(r["M"])); t[(build,) + k].append(float(r["us_median"])); sch[k] = r["schedule"]
m = lambda v: sum(v) / len(v)
g = defaultdict(list)
print(f"{'type':16} {'shape':20} {'M':>4} {'schedule':32} {'B us':>8} {'A/B':>6} {'C/B':>6}")
for k in sorted(sch):
    if all((b,) + k in t for b in ("pa", "pb", "pc")):
        a, b, c = (m(t[(x,) + k]) for x in ("pa", "pb", "pc"))
        print(f"{k[0]:16} {k[1]:20} {k[2]:4} {sch[k]:32} {b:8.2f} {a/b:6.3f} {c/b:6.3f}")
        s = sch[k].split("_1x1")[0]; g[(k[0], s, "A/B")].append(a / b); g[(k[0], s, "C/B")].append(c / b)
print("\ngeomean per (type, schedule): A/B = P 128 over none, C/B = P 256 over none")
for k, v in sorted(g.items()):
    print(f"  {k[0]:16} {k[1]:14} {k[2]} n={len(v):3} {math.exp(sum(map(math.log, v))/len(v)):6.3f} {min(v):6.3f}-{max(v):6.3f}")
PY
cd $W && tar czf "$OUT/promote2.tar.gz" . && cd - > /dev/null
sed -n '/geomean per/,$p' $W/table.txt
