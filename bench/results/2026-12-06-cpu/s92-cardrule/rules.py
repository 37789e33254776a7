#!/usr/bin/env python3
"""Session 92: what simple card-specific decode rules would buy on session 91's H100 table of every schedule.

  python3 rules.py ../../2026-12-06-h100/s91-allsched      (writes the table to stdout)

For each type config, each rule names one schedule per (layer, M); the rule's time over the fastest schedule's
(medians in CUDA graphs) is reported as a geomean over the table's 24 points and per point. Rules: the heuristic's
pick (plan.csv), one 8-warp CTA per SM everywhere (t8_w8_o1 at M <= 8, t16_w8_o1 at M = 16), that at M <= 8 only,
t16_w8_o1 everywhere, and the pick with TM 16 in place of a TM 8 pick."""
import csv, math, os, sys
from collections import defaultdict

src = sys.argv[1] if len(sys.argv) > 1 else "../../2026-12-06-h100/s91-allsched"
plan = {(r["shape"], r["type"], r["M"]): r["schedule"] for r in csv.DictReader(open(os.path.join(src, "plan.csv")))}
for t in ["f16.u4b8.g128", "s8.u4b8.g128"]:
    T = defaultdict(dict)
    for r in csv.DictReader(open(os.path.join(src, f"allsched-{t}.csv"))):
        if r["kernel"] == "mixgemm" and r["status"] == "ok":
            T[(r["shape"], r["M"])][r["schedule"]] = float(r["us_median"])
    pick = lambda s, M: plan[(s, t, M)]
    rules = {
        "pick": pick,
        "o1": lambda s, M: "smallm_t8_w8_o1_p0" if int(M) <= 8 else "smallm_t16_w8_o1_p0",
        "o1 at M<=8, else pick": lambda s, M: "smallm_t8_w8_o1_p0" if int(M) <= 8 else pick(s, M),
        "t16_w8_o1": lambda s, M: "smallm_t16_w8_o1_p0",
        "pick, TM 16 for TM 8": lambda s, M: pick(s, M).replace("_t8_", "_t16_"),
    }
    print(t)
    per = {}
    for name, f in rules.items():
        rs = {k: d[f(*k)] / min(d.values()) for k, d in T.items() if f(*k) in d}
        per[name] = rs
        g = math.exp(sum(math.log(x) for x in rs.values()) / len(rs))
        print(f"  {name:24s} rule / fastest: geomean {g:.4f}, max {max(rs.values()):.3f} over {len(rs)} of {len(T)} points")
    print("  per point (rule / fastest):  layer  M  " + "  ".join(rules))
    for k in sorted(T):
        print(f"    {k[0]:20s} {k[1]:>3}  " + "  ".join(f"{per[n].get(k, float('nan')):.3f}" for n in rules))
