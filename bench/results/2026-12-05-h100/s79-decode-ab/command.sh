#!/usr/bin/env bash
# Session 79: the large-layer decode rule (core::kSm90DecodeMinWeights: sm90 256 x 16 instead of smallm for 16-bit
# activations at M = 9..16 and grouped e4m3 at M <= 8) on and off (MIXGEMM_SM90_DECODE=0) in one build, at the
# heuristic's picks on the seed shape and the Llama-2-70B layers (#6's shapes), f16 / bf16 / e4m3 x u4b8 g128,
# M = 1, 8, 12, 16: CUDA graphs (32 launches per replay) and event-timed, rounds in alternating order.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s79-next/decode-ab.sh    (repo root; ~5 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
W=/tmp/decode-ab; rm -rf $W; mkdir -p $W
t0=$SECONDS; DEADLINE=${DEADLINE:-380}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
nvidia-smi --query-gpu=name --format=csv,noheader > $W/gpu.txt
BIN=build-sweep/tools/mixgemm-bench
if [ ! -x $BIN ]; then
  BIN=build-dab/tools/mixgemm-bench
  ( cmake -S . -B build-dab -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,e4m3.u4 \
      -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF && timeout 240 cmake --build build-dab -j 16 --target mixgemm-bench ) > $W/build.log 2>&1
  [ -x $BIN ] || { echo "build failed"; tail -30 $W/build.log; exit 1; }
fi
echo "bench ready at $((SECONDS - t0)) s"
B=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --iters 30 --warmup 3
   --types f16.u4b8.g128,bf16.u4b8.g128,e4m3.u4b8.g128 --shapes seed,llama2-70b --m 1,8,12,16)
run() {  # $1 stem, $2 decode switch, rest: flags
  local s=$1 d=$2; shift 2; local lim; lim=$(left 10); [ "$lim" -gt 60 ] && lim=60
  MIXGEMM_SM90_DECODE=$d timeout "$lim" $BIN "${B[@]}" "$@" --csv $W/$s.csv > $W/$s.log 2>&1; echo "$s rc=$? at $((SECONDS - t0)) s"
}
for r in 1 2; do
  if [ $r = 1 ]; then order="on off"; else order="off on"; fi
  for k in $order; do
    d=1; [ $k = off ] && d=0
    run graph-$k-r$r $d --graph-batch 32
    run event-$k-r$r $d
  done
done
cd $W && tar czf "$OUT/decode-ab.tar.gz" *.csv *.log gpu.txt && cd - > /dev/null
python3 - $W <<'PY'
import csv, glob, math, sys
from collections import defaultdict
t = defaultdict(list); sch = {}
for p in glob.glob(sys.argv[1] + "/*.csv"):
    mode, side = p.split("/")[-1].split("-")[:2]
    for r in csv.DictReader(open(p)):
        if r["kernel"] != "mixgemm" or r["status"] != "ok": continue
        k = (mode, r["type_spec"], r["shape"], int(r["M"]))
        t[(side,) + k].append(float(r["us_median"])); sch[(side,) + k] = r["schedule"]
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
moved = defaultdict(list)
for k in sorted({k[1:] for k in t}):
    if ("on",) + k not in t or ("off",) + k not in t: continue
    on, off = sum(t[("on",) + k]) / len(t[("on",) + k]), sum(t[("off",) + k]) / len(t[("off",) + k])
    if sch[("on",) + k] != sch[("off",) + k]:
        moved[(k[0], k[1])].append(on / off)
        print(f"{k[0]:5} {k[1]:15} {k[2]:20} M={k[3]:2} on {on:7.2f} off {off:7.2f} {on/off:.3f} {sch[('on',)+k]} / {sch[('off',)+k]}")
for k, v in sorted(moved.items()): print(f"{k[0]} {k[1]}: moved {len(v)} geomean {g(v):.3f} [{min(v):.3f}, {max(v):.3f}]")
PY
