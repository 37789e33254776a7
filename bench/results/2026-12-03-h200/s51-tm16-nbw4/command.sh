#!/usr/bin/env bash
# Session 51, call 6: TM 16 with more independent work per warp (experiment build, branch wip/tm16-nbw4):
# -DMIXGEMM_SMALLM_NBW=4 (four 512-byte n-blocks per warp and row instead of two: 4 words per k-step and lane, 8
# accumulator chains at TM 16, as Marlin's loop) with -DMIXGEMM_SMALLM_TM16_MINBLOCKS=1 (TM 16 compiled for one
# 256-thread CTA per SM: up to 255 registers; 4-warp CTAs still fit two per SM), against main's build. Every smallm
# schedule at M = 16, f16 x u4b8 g128, in CUDA graphs, cold L2. Binaries built on the dev machine (a31303d's kernels +
# the branch's one-line launch-bounds switch; restricted sm90 set).
set -uo pipefail
for b in main nbw4; do
  ./.s51/bench-$b --shapes seed,llama2-70b,llama3-8b --m 16 --types f16.u4b8.g128 --all-schedules --no-baselines \
    --graph-batch 32 --iters 20 --warmup 3 --settle-ms 0 --time-limit 150 --csv $OUT/allsched-$b.csv \
    > $OUT/allsched-$b.txt 2>&1
  echo "$b rc=$?"
done
python3 - $OUT <<'PY'
import csv, sys, os
out = sys.argv[1]
def load(b):
    rows = {}
    for r in csv.DictReader(open(os.path.join(out, f"allsched-{b}.csv"))):
        if r["kernel"] == "mixgemm" and r["status"] == "ok" and "smallm_t16" in r["schedule"]:
            rows[(r["shape"], r["schedule"])] = float(r["us_median"])
    return rows
m, n = load("main"), load("nbw4")
for shape in sorted({k[0] for k in m}):
    bm = min((v, s) for (sh, s), v in m.items() if sh == shape)
    cand = sorted((v, s) for (sh, s), v in n.items() if sh == shape)
    best = cand[0] if cand else (float("nan"), "-")
    print(f"{shape:20s} main best {bm[1]:22s} {bm[0]:8.2f}  nbw4 best {best[1]:22s} {best[0]:8.2f}  ratio {best[0] / bm[0]:.3f}")
PY
