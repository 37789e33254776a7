#!/usr/bin/env python3
"""narrow-h200.sh's table: per (type, shape, M) each forced tile's time over the heuristic pick's (mean of the two
rounds' medians), the fastest, and what the pick would take with each rule below; geomeans per (type, M).
  t16 / t32: 256 x 16 / 256 x 32, t64: 256 x 64, w64: 128 x 64, heur: the pick (main: narrow tiles in place of 256 x 64)
Rules evaluated (time of the rule's tile over the pick's):
  sm90-only-narrow : where the pick is 128 x 64 at M <= 32, the narrow tile instead (does 256 x 32 beat 128 x 64?)
  e4m3-decode      : where the pick is smallm at M <= 16, 256 x 16 instead (does sm90 beat smallm at decode?)
Usage: narrow_h200_table.py <dir with the tar's csv files>"""
import csv, glob, math, os, sys
from collections import defaultdict

t = defaultdict(list)
sched = {}
for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.csv"))):
    kind = os.path.basename(p)[:-4].split("-")[0]
    for r in csv.DictReader(open(p)):
        if r.get("kernel") not in (None, "", "mixgemm") or r["status"] != "ok" or not r["us_median"]:
            continue
        key = (r["type_spec"], r["shape"], int(r["M"]))
        t[(kind,) + key].append(float(r["us_median"]))
        if kind == "heur":
            sched[key] = r["schedule"]
mean = lambda v: sum(v) / len(v)
kinds = ("t16", "t32", "t64", "w64")
geo = defaultdict(list)
print(f"{'type':16} {'shape':20} {'M':>3} {'pick us':>8} " + " ".join(f"{k:>6}" for k in kinds) + "  pick")
for key in sorted({k[1:] for k in t if k[0] == "heur"}):
    h = mean(t[("heur",) + key])
    r = {k: mean(t[(k,) + key]) / h for k in kinds if (k,) + key in t}
    s = sched[key]
    print(f"{key[0]:16} {key[1]:20} {key[2]:3} {h:8.2f} " + " ".join(f"{r.get(k, float('nan')):6.3f}" for k in kinds) + f"  {s}")
    narrow = "t16" if key[2] <= 16 else "t32"
    if key[2] <= 32 and s.startswith("sm90_128x64") and narrow in r:
        geo[(key[0], "sm90-only-narrow")].append(r[narrow])
    if key[2] <= 16 and s.startswith("smallm") and "t16" in r:
        geo[(key[0], "e4m3-decode" if key[0].startswith("e4m3") else "decode-" + key[0].split(".")[0])].append(r["t16"])
print("\nrules (time over the pick; < 1: the rule is faster): n, geomean, min, max")
for k, v in sorted(geo.items()):
    g = math.exp(sum(map(math.log, v)) / len(v))
    print(f"  {k[0]:16} {k[1]:18} n={len(v):3} {g:6.3f} {min(v):6.3f} {max(v):6.3f}")
