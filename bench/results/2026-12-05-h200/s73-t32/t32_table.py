#!/usr/bin/env python3
"""s73-t32's table: per (type, shape, M), the narrow token tiles (t: 256 rows, two consumer warpgroups; c: 384 rows, three) and 256 x 64 over the heuristic's pick (each
the mean of its two rounds' medians), the pick's schedule; geomeans per (type, M); the verify status of the new rows."""
import csv, glob, math, os, sys
from collections import defaultdict

w = sys.argv[1]
t = defaultdict(list)  # (kind, type, shape, M) -> [us]
pf = defaultdict(list)  # (kind, type, shape, M) -> [% of the weight-streaming floor]
sched = {}
verify = defaultdict(int)
for p in sorted(glob.glob(os.path.join(w, "*.csv"))):
    tag = os.path.basename(p)[:-4]
    for r in csv.DictReader(open(p)):
        if not r.get("schedule") or r.get("kernel") not in (None, "", "mixgemm"):
            continue
        key = (r["type_spec"], r["shape"], int(r["M"]))
        if tag.startswith("verify"):
            verify[(tag, r["status"], r["verify"])] += 1
            continue
        if r["status"] != "ok" or not r["us_median"]:
            print("not ok:", tag, key, r["status"], r.get("note", ""))
            continue
        kind = tag.split("-")[0]  # t32 / c32 / t16 / c16 / t8 / c8 / t64 / heur
        t[(kind,) + key].append(float(r["us_median"]))
        if r.get("pct_floor"):
            pf[(kind,) + key].append(float(r["pct_floor"]))
        if kind == "heur":
            sched[key] = r["schedule"]
for k, v in sorted(verify.items()):
    print("verify", *k, v)
mean = lambda v: sum(v) / len(v) if v else float("nan")
kinds = ("t8", "c8", "t16", "c16", "t32", "c32", "t64")
print(f"\n{'type':16} {'shape':24} {'M':>3} {'pick us':>8} " + " ".join(f"{k:>7}" for k in kinds) +
      "  (time / pick's)  pick %floor, best new tile %floor, pick")
g = defaultdict(list)
for key in sorted({k[1:] for k in t}):
    b = mean(t[("heur",) + key])
    row = [mean(t[(k,) + key]) / b for k in kinds]
    for k, x in zip(kinds, row):
        if not math.isnan(x):
            g[(key[0], key[2], k)].append(x)
    best = max((mean(pf[(k,) + key]) for k in kinds[:-1] if pf[(k,) + key]), default=float("nan"))
    print(f"{key[0]:16} {key[1]:24} {key[2]:3} {b:8.2f} " + " ".join(f"{x:7.3f}" for x in row) +
          f"  {mean(pf[('heur',) + key]):5.1f} {best:5.1f}  {sched.get(key, '')}")
print("\ngeomean over shapes, time / the heuristic pick's (< 1: faster than the pick):")
for ty in sorted({k[0] for k in g}):
    for m in sorted({k[1] for k in g}):
        cells = []
        for k in kinds:
            v = g.get((ty, m, k), [])
            cells.append(f"{k} {math.exp(sum(map(math.log, v)) / len(v)):.3f} ({min(v):.2f}-{max(v):.2f})" if v else f"{k} -")
        print(f"  {ty:16} M={m:3}  " + "  ".join(cells))
