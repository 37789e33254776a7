#!/usr/bin/env python3
"""The rule on / off per point and the geomean over the moved points (run from the repo root)."""
import csv, glob, math, os
from collections import defaultdict
here = os.path.dirname(os.path.abspath(__file__))
t, sch = defaultdict(list), {}
for p in glob.glob(os.path.join(here, "*.csv")):
    mode, side = os.path.basename(p).split("-")[:2]
    for r in csv.DictReader(open(p)):
        if r["kernel"] != "mixgemm" or r["status"] != "ok": continue
        k = (mode, r["type_spec"], r["shape"], int(r["M"]))
        t[(side,) + k].append(float(r["us_median"])); sch[(side,) + k] = r["schedule"]
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
mv = defaultdict(list)
for k in sorted({k[1:] for k in t}):
    on = sum(t[("on",) + k]) / len(t[("on",) + k]); off = sum(t[("off",) + k]) / len(t[("off",) + k])
    if sch[("on",) + k] != sch[("off",) + k]: mv[(k[0], k[1])].append(on / off)
    print(f"{k[0]:5} {k[1]:14} {k[2]:20} M={k[3]:2} on {on:7.2f} off {off:7.2f} {on/off:.3f} {sch[('on',)+k]} / {sch[('off',)+k]}")
for k, v in sorted(mv.items()): print(k, f"moved {len(v)} geomean {g(v):.3f} [{min(v):.3f}, {max(v):.3f}]")
