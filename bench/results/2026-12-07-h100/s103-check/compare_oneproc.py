#!/usr/bin/env python3
"""Per-row time of the one-process run (allsched-green.tgz here) over the one-process-per-layer run of session 102
(../s102-allsched-green/allsched-green.tgz): same schedules, layers, M and green context size.
   python3 compare_oneproc.py <dir with this run's CSVs> <dir with session 102's CSVs>"""
import csv, glob, math, os, sys

def load(d):
    rows = {}
    for f in glob.glob(os.path.join(d, "*.csv")):
        for r in csv.DictReader(open(f)):
            if r.get("status") == "ok":
                rows[(r["shape"], r["type_spec"], r["M"], r["schedule"])] = float(r["us_median"])
    return rows

one, per = load(sys.argv[1]), load(sys.argv[2])
keys = sorted(k for k in one if k in per)
ratio = {k: one[k] / per[k] for k in keys}
g = math.exp(sum(math.log(v) for v in ratio.values()) / len(ratio))
print(f"{len(keys)} rows in both; one process / per layer: geomean {g:.4f}, "
      f"min {min(ratio.values()):.3f}, max {max(ratio.values()):.3f}")
for k in sorted(keys, key=ratio.get)[:3] + sorted(keys, key=ratio.get)[-5:]:
    print(f"  {k[0]:20s} {k[1]:14s} M={k[2]:>2s} {k[3]:32s} {per[k]:8.3f} -> {one[k]:8.3f} us  {ratio[k]:.3f}")
