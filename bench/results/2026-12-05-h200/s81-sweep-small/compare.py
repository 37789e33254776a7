#!/usr/bin/env python3
"""This H200 sweep at M = 1..64 (a37010d: sessions 66-80's tiles and rules) against session 65's H200 sweep
(2026-12-04-h200/s65-sweep/, the standing bars), at the points both have: per point the time ratio and the schedules
where they differ; per (type, M) the geomean over the five #6 shapes, split into points whose schedule changed and the
rest; and the copy bandwidth and cuBLAS fp16 times of both runs (the floors and the bars' denominators). Repo root."""
import csv, math
from collections import defaultdict
def load(p):
    d, cub, bw = {}, {}, set()
    for r in csv.DictReader(open(p)):
        if r["status"] != "ok": continue
        k = (r["type_spec"], r["shape"], int(r["M"]))
        if r["kernel"] == "mixgemm":
            d[k] = (float(r["us_median"]), r["schedule"], float(r["pct_floor"] or "nan"))
            bw.add(round(float(r["copy_gbps"])))
        elif r["kernel"] == "cublas_fp16":
            cub[(r["shape"], int(r["M"]))] = float(r["us_median"])
    return d, cub, bw
a, ca, bwa = load("bench/results/2026-12-04-h200/s65-sweep/bench.csv")
b, cb, bwb = load("bench/results/2026-12-05-h200/s81-sweep-small/bench.csv")
geo = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
print(f"copy bandwidth GB/s: s65 {sorted(bwa)}  s81 {sorted(bwb)}")
cr = [cb[k] / ca[k] for k in cb if k in ca]
print(f"cuBLAS fp16 time s81 / s65 over {len(cr)} points: geomean {geo(cr):.3f} [{min(cr):.3f}, {max(cr):.3f}]")
moved, same = defaultdict(list), defaultdict(list)
print("points whose schedule changed (s65 -> s81): time ratio, % floor before -> after")
for k in sorted(set(a) & set(b)):
    r = b[k][0] / a[k][0]
    if a[k][1] != b[k][1]:
        moved[(k[0], k[2])].append(r)
        print(f"  {k[0]:16} {k[1]:16} M={k[2]:2} {r:.3f}  {a[k][2]:5.1f} -> {b[k][2]:5.1f}  {a[k][1]} -> {b[k][1]}")
    else:
        same[(k[0], k[2])].append(r)
print("type M: geomean time ratio s81 / s65 [min, max] (n) over moved | unmoved points")
for t in sorted(set(moved) | set(same)):
    m, s = moved.get(t, []), same.get(t, [])
    ms = f"{geo(m):.3f} [{min(m):.3f}, {max(m):.3f}] n={len(m)}" if m else "-"
    ss = f"{geo(s):.3f} [{min(s):.3f}, {max(s):.3f}] n={len(s)}" if s else "-"
    print(f"  {t[0]:16} M={t[1]:2}: {ms:32} | {ss}")
