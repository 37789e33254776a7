#!/usr/bin/env bash
# Session 81, prepared: at decode sm90's 256 x 16 streams the weights, and there the model's wave count misprices both
# ways (2026-12-05-h100/s81-split-wave/: stream-K cost +2-4 us per launch over a one-wave split-K). On three large layers
# the heuristic runs 256 x 16 with stream-K (sm90_split gives whole 0, stream 132: Llama-2-70B gate_up 57344 x 8192,
# one of #6's shapes; Llama-3-405B gate_up at tp 2, 53248 x 16384; Llama-2-7B gate_up, 22016 x 4096), where split-K would
# run two waves (224 / 208 tiles unsplit) or 3 parts (86 tiles). Is split-K (MIXGEMM_SM90_SPLIT=splitk) faster there?
# f16 / e4m3 x u4b8 g128 at M = 1 / 8 / 16 with 256 x 16 forced, CUDA graphs and event-timed, two mirrored rounds.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s81-next/stream-tail.sh    (repo root; ~2 min with a
#   build of the one schedule, ~1 min where build-sweep is there)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
W=/tmp/stream-tail; rm -rf $W; mkdir -p $W
t0=$SECONDS; DEADLINE=${DEADLINE:-300}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
nvidia-smi --query-gpu=name --format=csv,noheader > $W/gpu.txt
BIN=build-sweep/tools/mixgemm-bench
for b in build-sweep build-st; do [ -x $b/tools/mixgemm-bench ] && { BIN=$b/tools/mixgemm-bench; break; }; done
if [ ! -x $BIN ]; then   # 256 x 16 is forced, so the one schedule suffices
  BIN=build-st/tools/mixgemm-bench
  ( cmake -S . -B build-st -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,e4m3.u4 \
      -DMIXGEMM_SM90_SCHEDULES=256x16_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF &&
    timeout 240 cmake --build build-st -j 16 --target mixgemm-bench ) > $W/build.log 2>&1
  [ -x $BIN ] || { echo "build failed"; tail -30 $W/build.log; exit 1; }
fi
TYPES=f16.u4b8.g128,e4m3.u4b8.g128
echo "bench $BIN ready at $((SECONDS - t0)) s"
C=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --iters 20 --warmup 3
   --m 1,8,16 --types $TYPES --schedule sm90_256x16_1x1x1_coop_splitk
   --shape 57344x8192 --shape 53248x16384 --shape 22016x4096)
run() {  # $1 stem, rest: flags
  local s=$1; shift; local lim; lim=$(left 10); [ "$lim" -gt 90 ] && lim=90
  timeout "$lim" $BIN "${C[@]}" "$@" --csv $W/$s.csv > $W/$s.log 2>&1; echo "$s rc=$? at $((SECONDS - t0)) s"
}
for r in 1 2; do
  order="auto splitk"; [ $r = 2 ] && order="splitk auto"
  for k in $order; do
    for mode in graph event; do
      g=(); [ $mode = graph ] && g=(--graph-batch 32)
      if [ $k = splitk ]; then MIXGEMM_SM90_SPLIT=splitk run $mode-splitk-r$r "${g[@]}"; else run $mode-auto-r$r "${g[@]}"; fi
    done
  done
done
cp "$0" $W/command.sh; [ -f $W/build.log ] && gzip -f $W/build.log
cd $W && tar czf "$OUT/stream-tail.tar.gz" * && cd - > /dev/null
python3 - $W <<'PY' | tee "$OUT/stream-tail-table.txt"
import csv, glob, sys
from collections import defaultdict
t = defaultdict(list)
for p in glob.glob(sys.argv[1] + "/*.csv"):
    mode, side = p.split("/")[-1].split("-")[:2]
    for r in csv.DictReader(open(p)):
        if r["kernel"] == "mixgemm" and r["status"] == "ok":
            t[(side, mode, r["type_spec"], int(r["N"]), int(r["K"]), int(r["M"]))].append(float(r["us_median"]))
print("mode  type             N     x K      M  auto(stream)_us  splitk_us  splitk/auto")
for k in sorted({k[1:] for k in t}):
    a, b = (sum(t[(s,) + k]) / len(t[(s,) + k]) if (s,) + k in t else float("nan") for s in ("auto", "splitk"))
    print(f"{k[0]:5} {k[1]:16} {k[2]:6}x{k[3]:<6} M={k[4]:2} {a:9.2f} {b:9.2f}  {b/a:.3f}")
PY
