#!/usr/bin/env python3
"""Table of s73-t32's runs: per (type, shape, M) the 256 x 32 tile (sets 1 / 2, mean of the two rounds) and
128 x 64 / the heuristic's pick over 256 x 64 (mean of its four runs), and the verify status of the new tile's rows."""
import csv, glob, math, os, sys
from collections import defaultdict

w = sys.argv[1]
t = defaultdict(list)  # (tag, type, shape, M) -> us
sched = {}
verify = defaultdict(int)
for p in glob.glob(os.path.join(w, "*.csv")):
    tag = os.path.basename(p)[:-4]
    for r in csv.DictReader(open(p)):
        if r.get("kernel") != "mixgemm" and not r.get("schedule"):
            continue
        key = (r["type_spec"], r["shape"], int(r["M"]))
        if tag.startswith("verify"):
            verify[(tag, r["verify"] or r["status"])] += 1
            continue
        if r["status"] != "ok" or not r["us_median"]:
            print("not ok:", tag, key, r["status"], r.get("note", ""))
            continue
        kind = tag.split("-")[0]  # t32 / t64 / t128x64 / heur
        if kind == "t32":
            kind += "-" + tag.split("-")[1]
        t[(kind,) + key].append(float(r["us_median"]))
        if kind == "heur":
            sched[key] = r["schedule"]
for k, v in sorted(verify.items()):
    print("verify", k[0], k[1], v)
mean = lambda v: sum(v) / len(v) if v else float("nan")
keys = sorted({k[1:] for k in t})
print(f"{'type':16} {'shape':22} {'M':>3} {'256x64 us':>9} {'t32s1':>6} {'t32s2':>6} {'128x64':>6} {'heur':>6}  heuristic pick")
g = defaultdict(list)
for key in keys:
    b = mean(t[("t64",) + key])
    row = [mean(t[(k,) + key]) / b for k in ("t32-s1", "t32-s2", "t128x64", "heur")]
    for k, x in zip(("s1", "s2", "128x64", "heur"), row):
        if not math.isnan(x):
            g[(key[0], key[2], k)].append(x)
    print(f"{key[0]:16} {key[1]:22} {key[2]:3} {b:9.2f} " + " ".join(f"{x:6.3f}" for x in row) + f"  {sched.get(key, '')}")
print("\ngeomean over shapes (time / 256x64's):")
for ty in sorted({k[0] for k in g}):
    for m in sorted({k[1] for k in g}):
        cells = []
        for k in ("s1", "s2", "128x64", "heur"):
            v = g.get((ty, m, k), [])
            cells.append(f"{k} {math.exp(sum(map(math.log, v)) / len(v)):.3f}" if v else f"{k} -")
        print(f"  {ty:16} M={m:3}  " + "  ".join(cells))
