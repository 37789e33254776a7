#!/usr/bin/env bash
# Session 81, prepared: should the large-layer decode rule (core::kSm90DecodeMinWeights) also send grouped e4m3 at
# M = 9..16 to sm90's 256 x 16? Today it covers grouped e4m3 at M <= 8 only; at M = 9..16 the crossover decides, and on
# 9 of the 49 layers of >= 26 Mi weights of the bench's model sets (tp 1..8) it picks smallm's TM 16 (72 points of
# bench/results/2026-12-05-cpu/s79-plan's harness), and on 7 more sm90's 128 x 64 (56 points); the other 264 points of
# those layers at M = 9..16 already run 256 x 16 (the narrow tile in place of a ranked 256 x 64). On the H200 (2026-12-05-h200/s81-narrow/) 256 x 16 took 0.829x
# smallm's time on Llama-3-8B down at M = 16, 0.986x on Llama-2-7B down, 1.003x on Llama-2-7B qkv (H100, s79-narrow:
# 0.834 / 1.002 / 1.049); the other 13 (tp-sharded layers) are not timed. This times all sixteen at M = 9 / 12 / 16, the
# heuristic's pick against 256 x 16 forced, CUDA graphs (32 launches per replay) and event-timed, two mirrored rounds.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s81-next/e4m3-m16.sh    (repo root; ~3 min with
#   the build, ~1 min on a warm machine that has build-sweep)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
W=/tmp/e4m3-m16; rm -rf $W; mkdir -p $W
t0=$SECONDS; DEADLINE=${DEADLINE:-400}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
nvidia-smi --query-gpu=name --format=csv,noheader > $W/gpu.txt
BIN=build-sweep/tools/mixgemm-bench   # every sm90 schedule of f16 / bf16 / s8 / e4m3 x u4 (sweep-small.sh)
if [ ! -x $BIN ]; then   # the heuristic's pick needs every e4m3 schedule compiled (it chooses among this build's)
  BIN=build-e4/tools/mixgemm-bench
  ( cmake -S . -B build-e4 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=e4m3.u4 -DMIXGEMM_BUILD_TESTS=OFF \
      -DMIXGEMM_BUILD_PYTHON=OFF && timeout 300 cmake --build build-e4 -j 16 --target mixgemm-bench ) > $W/build.log 2>&1
  [ -x $BIN ] || { echo "build failed"; tail -30 $W/build.log; exit 1; }
fi
echo "bench $BIN ready at $((SECONDS - t0)) s"
C=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --iters 20 --warmup 3
   --m 9,12,16 --types e4m3.u4b8.g128)
S=(--shape 7168x8192 --shape 5120x8192 --shape 4096x11008 --shape 12288x4096 --shape 4608x16384 --shape 2304x16384
   --shape 4096x14336 --shape 8192x3584 --shape 8192x4096 --shape 16384x2048 --shape 4096x7168 --shape 7168x4096
   --shape 8192x21760)   # the smallm layers (two pairs share a shape), the 128 x 64 ones, and the seed (control)
run() {  # $1 stem, rest: flags
  local s=$1; shift; local lim; lim=$(left 10); [ "$lim" -gt 120 ] && lim=120
  timeout "$lim" $BIN "${C[@]}" "${S[@]}" "$@" --csv $W/$s.csv > $W/$s.log 2>&1; echo "$s rc=$? at $((SECONDS - t0)) s"
}
for r in 1 2; do
  order="pick t16"; [ $r = 2 ] && order="t16 pick"
  for k in $order; do
    for mode in graph event; do
      g=(); [ $mode = graph ] && g=(--graph-batch 32)
      case $k in
        pick) run $mode-pick-r$r "${g[@]}" ;;
        t16) run $mode-t16-r$r "${g[@]}" --schedule sm90_256x16_1x1x1_coop_splitk ;;
      esac
    done
  done
done
cp "$0" $W/command.sh; [ -f $W/build.log ] && gzip -f $W/build.log
cd $W && tar czf "$OUT/e4m3-m16.tar.gz" * && cd - > /dev/null
python3 - $W <<'PY' | tee "$OUT/e4m3-m16-table.txt"
import csv, glob, math, sys
from collections import defaultdict
t, sch = defaultdict(list), {}
for p in glob.glob(sys.argv[1] + "/*.csv"):
    mode, side = p.split("/")[-1].split("-")[:2]
    for r in csv.DictReader(open(p)):
        if r["kernel"] != "mixgemm" or r["status"] != "ok": continue
        k = (mode, int(r["N"]), int(r["K"]), int(r["M"]))
        t[(side,) + k].append(float(r["us_median"]))
        if side == "pick": sch[k] = r["schedule"]
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
agg = defaultdict(list)
print("mode   N     x K      M  pick_us  t16_us  t16/pick  pick")
for k in sorted({k[1:] for k in t}):
    if ("pick",) + k not in t or ("t16",) + k not in t: continue
    a = sum(t[("pick",) + k]) / len(t[("pick",) + k]); b = sum(t[("t16",) + k]) / len(t[("t16",) + k])
    print(f"{k[0]:5} {k[1]:6}x{k[2]:<6} M={k[3]:2} {a:8.2f} {b:8.2f}  {b/a:.3f}  {sch[k]}")
    if not sch[k].startswith("sm90_256x16"): agg[(k[0], sch[k].split("_")[0] + "_" + sch[k].split("_")[1])].append(b / a)
for m, v in sorted(agg.items()):
    print(f"{m[0]}: 256 x 16 over the {m[1]} picks, geomean {g(v):.3f} [{min(v):.3f}, {max(v):.3f}] n={len(v)}")
PY
