#!/usr/bin/env python3
"""Session 52 call 2's summary: forced tiles z / base per point and geomeans; heuristic picks, row split on / off."""
import csv, glob, os, sys, collections, math
R = sys.argv[1]
t = collections.defaultdict(list)
for f in glob.glob(os.path.join(R, "forced-*.csv")):
    tag = os.path.basename(f).split("-")[1].rstrip("12")
    for r in csv.DictReader(open(f)):
        if r["kernel"] == "mixgemm" and r["us_median"]:
            t[(r["schedule"][5:12], r["type_spec"][:3], r["shape"], int(r["M"]), tag)].append(float(r["us_median"]))
lg = collections.defaultdict(list)
print("forced tiles (mean of two runs each), z / base:")
for k in sorted({k[:4] for k in t}):
    b, z = t.get(k + ("base",), []), t.get(k + ("z",), [])
    if b and z:
        mb, mz = sum(b) / len(b), sum(z) / len(z)
        lg[(k[0], k[1], k[3])].append(math.log(mz / mb))
        print(f"  {k[0]} {k[1]} {k[2]:18s} M={k[3]:5d} base {mb:8.1f} z {mz:8.1f} ({mz / mb:.3f})")
print("forced geomean z / base per tile, type and M (5 shapes):")
for k in sorted(lg):
    print(f"  {k[0]} {k[1]} M={k[2]:5d} {math.exp(sum(lg[k]) / len(lg[k])):.3f}")
h = collections.defaultdict(lambda: collections.defaultdict(list))
sched, xc = {}, {}
for f in glob.glob(os.path.join(R, "heur-*.csv")):
    var = os.path.basename(f)[5:-5]  # on-z / off-z
    for r in csv.DictReader(open(f)):
        k = (r["shape"], r["type_spec"][:3], int(r["M"]))
        if r["kernel"] == "cublas_fp16" and r["us_median"]: xc[k] = float(r["us_median"])
        if r["kernel"] == "mixgemm" and r["us_median"]:
            h[k][var].append(float(r["us_median"]))
            sched[(k, var)] = r["schedule"]
print("z, heuristic picks, us (mean of two runs): row split on (gemm's default) / off (MIXGEMM_ROW_SPLIT=0):")
for k in sorted(h):
    m = {v: sum(x) / len(x) for v, x in h[k].items()}
    if "on-z" in m and "off-z" in m:
        x = f"x_cublas {xc[k] / m['on-z']:.2f}" if k in xc else ""
        print(f"  {k[0]:18s} {k[1]} M={k[2]:5d} on {m['on-z']:8.1f} off {m['off-z']:8.1f} off/on {m['off-z'] / m['on-z']:.3f} {x} | {sched.get((k, 'on-z'))} | {sched.get((k, 'off-z'))}")
