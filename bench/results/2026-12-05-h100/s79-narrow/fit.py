#!/usr/bin/env python3
"""Session 79's two fits on this folder's tables (H100, CUDA graphs; *.csv: 13 tp-1 layers, heldout/*.csv: Llama-3-405B
and Llama-2-70B at tp 1..8). Run from the repo root with rank_harness built (see rank_harness.cpp):
  python3 bench/results/2026-12-05-h100/s79-narrow/fit.py /tmp/rank_harness
1. kNarrowRankA16: where 256 x 64 (run as 256 x 32) and 128 x 64 compete at M = 24 / 32, the tile chosen by
   f * t_model(256 x 64) < t_model(128 x 64), its measured time over the faster of the two, per f and activation width.
2. kSm90DecodeMinWeights: 256 x 16 forced against the pick where the pick is smallm at M <= 16, per threshold on N x K."""
import csv, glob, math, os, subprocess, sys
from collections import defaultdict
here = os.path.dirname(os.path.abspath(__file__))
names = {"128x64": "w64", "256x32": "t32", "256x16": "t16"}
t, pick = defaultdict(list), {}
for p in glob.glob(os.path.join(here, "*.csv")) + glob.glob(os.path.join(here, "heldout", "*.csv")):
    k = os.path.basename(p).split("-r")[0]; k = names.get(k, k)
    for r in csv.DictReader(open(p)):
        if r["kernel"] != "mixgemm" or r["status"] != "ok": continue
        key = (r["type_spec"], int(r["N"]), int(r["K"]), int(r["M"]))
        t[(k,) + key].append(float(r["us_median"]))
        if k == "heur": pick[key] = r["schedule"]
mean = lambda v: sum(v) / len(v)
geo = lambda v: math.exp(sum(map(math.log, v)) / len(v))
act = lambda key: key[0].split(".")[0]
keys = sorted(pick)
inp = "".join(f"{act(k)} {128 if k[0].endswith('g128') else 0} {k[1]} {k[2]} {k[3]}\n" for k in keys)
model = dict(zip(keys, [l.split() for l in subprocess.run([sys.argv[1]], input=inp, capture_output=True,
                                                         text=True, check=True).stdout.strip().split("\n")]))
print("1. narrow rank factor (M = 24 / 32, sm90 picks): picks' time over the faster of 128 x 64 / 256 x 32")
for fam, acts in (("16-bit", ("f16", "bf16")), ("8-bit", ("s8", "e4m3"))):
    pts = [k for k in keys if k[3] in (24, 32) and act(k) in acts and pick[k].startswith("sm90")
           and ("w64",) + k in t and ("t32",) + k in t]
    for f in (1.0, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6):
        rs = []
        for k in pts:
            t128, t256 = float(model[k][0]), float(model[k][1])
            ch = "t32" if f * t256 < t128 else "w64"
            rs.append(mean(t[(ch,) + k]) / min(mean(t[("w64",) + k]), mean(t[("t32",) + k])))
        print(f"  {fam:6} f = {f:4}: n = {len(rs)} geomean {geo(rs):.4f} worst {max(rs):.3f}")
print("2. decode threshold: 256 x 16 over smallm's pick where N x K >= T (1.0 below), M <= 16")
groups = {"16-bit M = 16": lambda k: k[3] == 16 and act(k) in ("f16", "bf16"),
          "e4m3 g128 M <= 8": lambda k: k[3] <= 8 and act(k) == "e4m3",
          "f16 M <= 8": lambda k: k[3] <= 8 and act(k) == "f16", "s8 M <= 16": lambda k: act(k) == "s8"}
for name, sel in groups.items():
    pts = [k for k in keys if k[3] <= 16 and sel(k) and pick[k].startswith("smallm") and ("t16",) + k in t]
    for T in (0, 20 << 20, 26 << 20, 32 << 20, 48 << 20, 64 << 20):
        rs = [mean(t[("t16",) + k]) / mean(t[("heur",) + k]) if k[1] * k[2] >= T else 1.0 for k in pts]
        mv = [r for k, r in zip(pts, rs) if k[1] * k[2] >= T]
        print(f"  {name:17} T = {T >> 20:3} Mi: moved {len(mv):3}" +
              (f" geomean(moved) {geo(mv):.4f} worst {max(mv):.3f}; over all {geo(rs):.4f}" if mv else ""))
