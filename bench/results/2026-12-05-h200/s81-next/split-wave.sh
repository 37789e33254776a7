#!/usr/bin/env bash
# Session 81, s80-next item 3 widened: sm90 256 x 16 at decode with the heuristic's split (sm90_split: split-K whose
# score is the busy fraction minus 3% per k-part, a second wave unpriced) against MIXGEMM_SM90_SPLIT=stream (one wave of
# 132 CTAs, stream-K) and against smallm (the pick with MIXGEMM_SM90_DECODE=0), on every layer >= 26 Mi weights of
# s80-decode-types plus Llama-3-405B at tp 16 (gate_up 6656 x 16384, down 16384 x 3328), in CUDA graphs, two rounds in mirrored order.
# Question: does the two-wave split of Llama-3-405B gate_up tp 8 (13312 x 16384: 52 tiles x 5 parts) lose because of
# the second wave, and does any other layer prefer stream-K?
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s81-next/split-wave.sh    (repo root; ~4 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
W=/tmp/split-wave; rm -rf $W; mkdir -p $W
t0=$SECONDS; DEADLINE=${DEADLINE:-560}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
nvidia-smi --query-gpu=name --format=csv,noheader > $W/gpu.txt
BIN=build-sw/tools/mixgemm-bench
( cmake -S . -B build-sw -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,e4m3.u4 \
    -DMIXGEMM_SM90_SCHEDULES=256x16_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF &&
  timeout 300 cmake --build build-sw -j 16 --target mixgemm-bench ) > $W/build.log 2>&1
[ -x $BIN ] || { echo "build failed"; tail -30 $W/build.log; exit 1; }
echo "bench ready at $((SECONDS - t0)) s"
C=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --iters 20 --warmup 3
   --m 1,8,16 --graph-batch 32 --types f16.u4b8.g128,e4m3.u4b8.g128)
S=(--shapes seed,llama2-70b --shape 2304x16384 --shape 16384x2048 --shape 13312x16384 --shape 16384x6656
   --shape 6656x16384 --shape 16384x3328)
run() {  # $1 stem, rest: flags
  local s=$1; shift; local lim; lim=$(left 10); [ "$lim" -gt 170 ] && lim=170
  MIXGEMM_SM90_DECODE=0 timeout "$lim" $BIN "${C[@]}" "$@" --csv $W/$s.csv > $W/$s.log 2>&1; echo "$s rc=$? at $((SECONDS - t0)) s"
}
t16=(--schedule sm90_256x16_1x1x1_coop_splitk)
for r in 1 2; do
  order="split stream smallm"; [ $r = 2 ] && order="smallm stream split"
  for k in $order; do
    case $k in
      split) run split-r$r "${S[@]}" "${t16[@]}" ;;
      stream) MIXGEMM_SM90_SPLIT=stream run stream-r$r "${S[@]}" "${t16[@]}" ;;
      smallm) run smallm-r$r "${S[@]}" ;;
    esac
  done
done
cp "$0" $W/command.sh; gzip -f $W/build.log
cd $W && tar czf "$OUT/split-wave.tar.gz" * && cd - > /dev/null
python3 - $W <<'PY' | tee $W/table.txt
import csv, glob, math, sys
from collections import defaultdict
t = defaultdict(list)
for p in glob.glob(sys.argv[1] + "/*.csv"):
    side = p.split("/")[-1].split("-")[0]
    for r in csv.DictReader(open(p)):
        if r["kernel"] != "mixgemm" or r["status"] != "ok": continue
        t[(side, r["type_spec"], int(r["N"]), int(r["K"]), int(r["M"]))].append(float(r["us_median"]))
av = lambda k: sum(t[k]) / len(t[k]) if k in t else float("nan")
print("type             N     x K      M  split_us stream_us smallm_us stream/split split/smallm stream/smallm")
for k in sorted({k[1:] for k in t}):
    a, b, c = av(("split",) + k), av(("stream",) + k), av(("smallm",) + k)
    print(f"{k[0]:16} {k[1]:6}x{k[2]:<6} M={k[3]:2} {a:8.2f} {b:8.2f} {c:8.2f}   {b/a:.3f}   {a/c:.3f}   {b/c:.3f}")
PY
cp $W/table.txt "$OUT/split-wave-table.txt"
