#!/usr/bin/env python3
"""This sweep (fe076a7) against s79-sweep-small (444fc59), the same script on an H100: per point, the time ratio and
the schedules where they differ; per (type, M), the geomean over the five #6 shapes. Run from the repo root."""
import csv, math
from collections import defaultdict
R = "bench/results/2026-12-05-h100/"
def load(p):
    d = {}
    for r in csv.DictReader(open(p)):
        if r["kernel"] == "mixgemm" and r["status"] == "ok":
            d[(r["type_spec"], r["shape"], int(r["M"]))] = (float(r["us_median"]), r["schedule"])
    return d
a, b = load(R + "s79-sweep-small/bench.csv"), load(R + "s80-sweep-small/bench.csv")
geo = lambda v: math.exp(sum(map(math.log, v)) / len(v))
allp, moved = defaultdict(list), defaultdict(list)
print("points whose schedule changed (444fc59 -> fe076a7):")
for k in sorted(set(a) & set(b)):
    r = b[k][0] / a[k][0]; allp[(k[0], k[2])].append(r)
    if a[k][1] != b[k][1]:
        moved[(k[0], k[2])].append(r)
        print(f"  {k[0]:15} {k[1]:20} M={k[2]:2} {a[k][0]:7.2f} -> {b[k][0]:7.2f} us  {r:.3f}  {a[k][1]} -> {b[k][1]}")
print("\ngeomean time ratio per (type, M) over the five shapes (unmoved points: the two runs' drift):")
for k, v in sorted(allp.items()):
    m = moved.get(k)
    print(f"  {k[0]:15} M={k[1]:2} all {geo(v):.3f}" + (f"   moved {geo(m):.3f} (n={len(m)})" if m else ""))
