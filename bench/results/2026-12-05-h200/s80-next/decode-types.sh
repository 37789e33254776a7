#!/usr/bin/env bash
# Session 80, prepared: the type configs session 79's large-layer decode rule was not measured on
# (core::kSm90DecodeMinWeights, src/core/dispatch.h). sm90's 256 x 16 forced against smallm (the pick with
# MIXGEMM_SM90_DECODE=0) in CUDA graphs (32 launches per replay), two rounds in mirrored order, at M = 1 / 8 / 16:
#   f16.u4.g128 (zero points: the rule covers it at M = 9..16, unmeasured), bf16.u4b8.gch (likewise),
#   e4m3.u4b8.gch (per-channel e4m3: not covered), s8.u4b8.gch (s8: 1.06x on grouped s8 in s79, per-channel not timed),
#   f16.u8b128.g128 / bf16.u8b128.gch (8-bit weights: not covered).
# Layers: #6's (seed, Llama-2-70B), Llama-3-405B at tp 8 (2304 x 16384, 16384 x 2048, 13312 x 16384, 16384 x 6656:
# 32-208 Mi weights) and Llama-3-8B (below the threshold; the control).
# Since session 80 also s80-next item 3: 256 x 16 with MIXGEMM_SM90_SPLIT=stream on Llama-3-405B gate_up at tp 8 (the one
# two-wave split) and the seed (the control).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s80-next/decode-types.sh    (repo root; ~4 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
W=/tmp/decode-types; rm -rf $W; mkdir -p $W
t0=$SECONDS; DEADLINE=${DEADLINE:-540}
left() { local l=$((DEADLINE - (SECONDS - t0) - ${1:-0})); [ "$l" -gt 0 ] && echo "$l" || echo 1; }
nvidia-smi --query-gpu=name --format=csv,noheader > $W/gpu.txt
# Since session 80: on a warm machine where sweep-small.sh left build-sweep (f16 / bf16 / s8 / e4m3 x u4, every sm90
# schedule) that binary runs and the two 8-bit-weight configs are left out (no build; s79-next/h200-all.sh chains this).
TYPES=f16.u4.g128,bf16.u4b8.gch,e4m3.u4b8.gch,s8.u4b8.gch,f16.u8b128.g128,bf16.u8b128.gch
BIN=build-sweep/tools/mixgemm-bench
if [ -x $BIN ]; then
  TYPES=f16.u4.g128,bf16.u4b8.gch,e4m3.u4b8.gch,s8.u4b8.gch
else
  BIN=build-dt/tools/mixgemm-bench
  ( cmake -S . -B build-dt -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,f16.u8,bf16.u8,s8.u4,e4m3.u4 \
      -DMIXGEMM_SM90_SCHEDULES=256x16_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF &&
    timeout 240 cmake --build build-dt -j 16 --target mixgemm-bench ) > $W/build.log 2>&1
  [ -x $BIN ] || { echo "build failed"; tail -30 $W/build.log; exit 1; }
fi
echo "bench $BIN ready at $((SECONDS - t0)) s"
C=(--no-baselines --settle-ms 0 --summary-m none --quiet --git-commit "${MIXGEMM_GIT_COMMIT:-unknown}" --iters 20 --warmup 3
   --m 1,8,16 --graph-batch 32)
S=(--shapes seed,llama2-70b,llama3-8b --shape 2304x16384 --shape 16384x2048 --shape 13312x16384 --shape 16384x6656)
run() {  # $1 stem, rest: flags
  local s=$1; shift; local lim; lim=$(left 10); [ "$lim" -gt 150 ] && lim=150
  MIXGEMM_SM90_DECODE=0 timeout "$lim" $BIN "${C[@]}" "$@" --csv $W/$s.csv > $W/$s.log 2>&1; echo "$s rc=$? at $((SECONDS - t0)) s"
}
t16=(--schedule sm90_256x16_1x1x1_coop_splitk)
for r in 1 2; do
  order="t16 smallm stream"; [ $r = 2 ] && order="stream smallm t16"
  for k in $order; do
    case $k in
      t16) run t16-r$r --types $TYPES "${S[@]}" "${t16[@]}" ;;
      smallm) run smallm-r$r --types $TYPES "${S[@]}" ;;
      # s80-next item 3: the one two-wave split (Llama-3-405B gate_up at tp 8) forced to stream-K, the seed (one wave) as
      # the control; compare with t16 (the heuristic's split) on the same points.
      stream) MIXGEMM_SM90_SPLIT=stream run t16stream-r$r --types f16.u4.g128,e4m3.u4b8.gch --shape 13312x16384 \
                --shape 8192x21760 "${t16[@]}" ;;
    esac
  done
done
cp "$0" $W/command.sh
gzip -f $W/build.log
cd $W && tar czf "$OUT/decode-types.tar.gz" * && cd - > /dev/null
python3 - $W <<'PY'
import csv, glob, math, sys
from collections import defaultdict
t = defaultdict(list); sch = {}
for p in glob.glob(sys.argv[1] + "/*.csv"):
    side = p.split("/")[-1].split("-")[0]
    for r in csv.DictReader(open(p)):
        if r["kernel"] != "mixgemm" or r["status"] != "ok": continue
        k = (r["type_spec"], int(r["N"]), int(r["K"]), int(r["M"]))
        t[(side,) + k].append(float(r["us_median"])); sch[(side,) + k] = r["schedule"]
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
big, small = defaultdict(list), defaultdict(list)
for k in sorted({k[1:] for k in t}):
    if ("t16",) + k not in t or ("smallm",) + k not in t: continue
    a = sum(t[("t16",) + k]) / len(t[("t16",) + k]); b = sum(t[("smallm",) + k]) / len(t[("smallm",) + k])
    (big if k[1] * k[2] >= 26 << 20 else small)[(k[0], k[3])].append(a / b)
    print(f"{k[0]:16} {k[1]:6}x{k[2]:<6} M={k[3]:2} t16 {a:8.2f} smallm {b:8.2f} {a/b:.3f} {sch[('smallm',)+k]}")
print("type M: 256x16 / smallm time, geomean [min, max] over layers >= 26 Mi weights | below")
for k in sorted(set(big) | set(small)):
    v, w = big.get(k, []), small.get(k, [])
    print(f"{k[0]:16} M={k[1]:2}: {g(v):.3f} [{min(v, default=0):.3f}, {max(v, default=0):.3f}] n={len(v)} | {g(w):.3f} n={len(w)}")
print("256x16 with MIXGEMM_SM90_SPLIT=stream: time over the heuristic's split and over smallm")
for k in sorted({k[1:] for k in t if k[0] == "t16stream"}):
    s_, a, b = (sum(t[(x,) + k]) / len(t[(x,) + k]) if (x,) + k in t else float("nan") for x in ("t16stream", "t16", "smallm"))
    print(f"{k[0]:16} {k[1]:6}x{k[2]:<6} M={k[3]:2} stream {s_:8.2f}  /split {s_/a:.3f}  /smallm {s_/b:.3f}")
PY
