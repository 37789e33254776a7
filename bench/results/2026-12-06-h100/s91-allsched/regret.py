#!/usr/bin/env python3
"""Per (shape, type, M): the heuristic's pick (from `mixgemm-bench --plan`, PLAN.csv), its time, the fastest schedule and
its time, and the reference kernel (Marlin / QQQ) in the same run.  python3 regret.py PLAN.csv ALLSCHED.csv..."""
import csv, math, sys
plan = {(r["shape"], r["type"], int(r["M"])): r["schedule"] for r in csv.DictReader(open(sys.argv[1])) if "schedule" in r}
print(f"{'shape':20s} {'type':14s} {'M':>3s} {'pick':32s} {'us':>7s} {'fastest':32s} {'us':>7s} {'pick/best':>9s} {'ref us':>7s} {'ref/pick':>8s}")
ratios = []
for path in sys.argv[2:]:
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "ok"]
    keys = sorted({(r["shape"], int(r["M"])) for r in rows}, key=lambda k: (k[0], k[1]))
    for shape, M in keys:
        mix = {r["schedule"]: float(r["us_median"]) for r in rows if r["shape"] == shape and int(r["M"]) == M and r["kernel"] == "mixgemm"}
        ref = [float(r["us_median"]) for r in rows if r["shape"] == shape and int(r["M"]) == M and r["kernel"] in ("marlin_w4a16", "qqq_w4a8") and r["type_spec"] == (rows[0]["type_spec"] if False else r["type_spec"]) and r["type_spec"].endswith("g128")]
        t = next(r["type_spec"] for r in rows if r["kernel"] == "mixgemm")
        pick = plan.get((shape, t, M), "?")
        best = min(mix, key=mix.get)
        tp = mix.get(pick, float("nan"))
        ratios.append(tp / mix[best])
        print(f"{shape:20s} {t:14s} {M:3d} {pick:32s} {tp:7.2f} {best:32s} {mix[best]:7.2f} {tp / mix[best]:9.3f} "
              f"{(ref[0] if ref else float('nan')):7.2f} {(ref[0] / tp if ref else float('nan')):8.3f}")
print(f"geomean pick / fastest: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.4f} over {len(ratios)} points, max {max(ratios):.3f}")
