#!/usr/bin/env python3
"""The tiles against each other, forced side by side in one build (CUDA graphs; per point the mean of the two rounds'
medians): each ratio's count, range and geomean over (type, shape, M).
   python3 narrow_vs_256x64.py seed_llama2-70b llama3-8b_llama2-7b"""
import csv, glob, math, os, sys
from collections import defaultdict

t = defaultdict(list)
for w in sys.argv[1:]:
    for p in glob.glob(os.path.join(w, "*.csv")):
        tag = os.path.basename(p)[:-4]
        if tag.startswith("verify"):
            continue
        kind = tag.split("-")[0]  # t32 / t16 / t8 (256 rows), c32 / c16 / c8 (384 rows), t64, heur
        for r in csv.DictReader(open(p)):
            if r["status"] == "ok" and r["us_median"]:
                t[(kind, r["type_spec"], r["shape"], int(r["M"]))].append(float(r["us_median"]))
mean = lambda v: sum(v) / len(v)
keys = {k[1:] for k in t}
print(f"{'tile / tile':14} {'M':12} {'n':>4} {'min':>6} {'max':>6} {'geomean':>8}")
for a, b, ms in [("t32", "t64", (24, 32)), ("t16", "t64", (16,)), ("t32", "t64", (16,)), ("t16", "t32", (16,)),
                 ("t8", "t16", (1, 8)), ("c32", "t32", None), ("c16", "t16", None), ("c8", "t8", None)]:
    r = [mean(t[(a,) + k]) / mean(t[(b,) + k]) for k in keys
         if (ms is None or k[2] in ms) and (a,) + k in t and (b,) + k in t]
    g = math.exp(sum(map(math.log, r)) / len(r))
    print(f"{a + ' / ' + b:14} {'all' if ms is None else ','.join(map(str, ms)):12} {len(r):4} {min(r):6.3f} {max(r):6.3f} {g:8.3f}")
