#!/usr/bin/env python3
"""Session 52 call 1's summary: forced tiles cand / base per point, heuristic picks per variant."""
import csv, glob, os, sys, collections, math
R = sys.argv[1]
def rows(pat):
    out = collections.defaultdict(list)
    for f in glob.glob(os.path.join(R, pat)):
        tag = os.path.basename(f).split("-")[1]
        for r in csv.DictReader(open(f)):
            if r["kernel"] == "mixgemm" and r["us_median"]:
                out[(r["schedule"], r["shape"], r["type_spec"][:3], int(r["M"]), tag[:4])].append(float(r["us_median"]))
    return out
t = rows("forced-*.csv")
print("forced tiles (mean of two runs each), cand / base:")
lg = collections.defaultdict(list)
for k in sorted({k[:4] for k in t}, key=lambda k: (k[0], k[2], k[1], k[3])):
    b, c = t.get(k + ("base",), []), t.get(k + ("cand",), [])
    if b and c:
        mb, mc = sum(b) / len(b), sum(c) / len(c)
        lg[(k[0][5:12], k[3])].append(math.log(mc / mb))
        print(f"  {k[0][5:12]} {k[2]} {k[1]:18s} M={k[3]:5d} base {mb:8.1f} cand {mc:8.1f} ({mc / mb:.3f})")
print("forced geomean cand / base per tile and M:")
for k in sorted(lg):
    print(f"  {k[0]} M={k[1]:5d} {math.exp(sum(lg[k]) / len(lg[k])):.3f} over {len(lg[k])}")
# heuristic: per point the four variants' means
h = collections.defaultdict(dict)
sched = {}
xc = {}
for f in glob.glob(os.path.join(R, "heur-*.csv")):
    tag = os.path.basename(f)[5:-4]  # on-base1 ...
    var = tag[:-1]
    for r in csv.DictReader(open(f)):
        k = (r["shape"], r["type_spec"][:3], int(r["M"]))
        if r["kernel"] == "cublas_fp16" and r["us_median"]:
            xc[k] = float(r["us_median"])
        if r["kernel"] == "mixgemm" and r["us_median"]:
            h[k].setdefault(var, []).append(float(r["us_median"]))
            sched[(k, var)] = r["schedule"]
print("heuristic picks, us (mean of two runs); on = row split (main's default), off = MIXGEMM_ROW_SPLIT=0:")
V = ["on-base", "on-cand", "off-base", "off-cand"]
print("  " + " ".join(f"{v:>9s}" for v in V) + "  cand-on/base-on  cand-off/cand-on  x_cublas(cand-on)")
for k in sorted(h):
    m = {v: sum(h[k][v]) / len(h[k][v]) for v in V if v in h[k]}
    if len(m) < 4: continue
    x = f"{xc[k] / m['on-cand']:.2f}" if k in xc else ""
    print(f"  {k[0]:18s} {k[1]} M={k[2]:5d} " + " ".join(f"{m[v]:9.1f}" for v in V) +
          f"  {m['on-cand'] / m['on-base']:.3f}  {m['off-cand'] / m['on-cand']:.3f}  {x}  {sched.get((k, 'on-cand'), '')} | {sched.get((k, 'off-cand'), '')}")
