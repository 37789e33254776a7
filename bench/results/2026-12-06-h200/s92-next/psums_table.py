#!/usr/bin/env python3
"""psums_table.py GEMM_CSV PSUMS_CSV: per (shape, type, M) the median us of mixgemm's pick through gemm(), through
gemm_partial_sums(), Marlin (f16) / QQQ (s8) and the pure read of the weights (stream_read_graph), and the ratios."""
import csv, sys
from collections import defaultdict


def rows(path):
    with open(path) as f:
        return [r for r in csv.DictReader(f) if r.get("status", "ok") in ("ok", "")]


t = defaultdict(dict)
read = {}
for r in rows(sys.argv[1]):
    key = (r["shape"], r["M"])
    k = r["kernel"]
    if k == "mixgemm":
        t[key + (r["a_type"],)]["gemm"] = float(r["us_median"])
        t[key + (r["a_type"],)]["sched"] = r["schedule"]
    elif k == "marlin_w4a16" and r["group_size"] == "128":
        t[key + ("f16",)]["ref"] = float(r["us_median"])
    elif k == "qqq_w4a8" and r["group_size"] == "128":
        t[key + ("s8",)]["ref"] = float(r["us_median"])
    elif k == "stream_read_graph":  # one row per shape (M = 1): the weights' read, whatever M
        read[r["shape"]] = float(r["us_median"])
for r in rows(sys.argv[2]):
    if r["kernel"] == "mixgemm":
        t[(r["shape"], r["M"], r["a_type"])]["psums"] = float(r["us_median"])
fmt = "{:<20} {:>4} {:>3} {:>8} {:>8} {:>8} {:>8}  {:>7} {:>7} {:>7}  {}"
print(fmt.format("shape", "act", "M", "read", "gemm", "psums", "ref", "ps/gemm", "ref/gem", "ref/ps", "pick"))
for (shape, m, a), d in sorted(t.items(), key=lambda kv: (kv[0][2], kv[0][0], int(kv[0][1]))):
    g, p, ref, rd = d.get("gemm"), d.get("psums"), d.get("ref"), read.get(shape)
    f = lambda x: "-" if x is None else f"{x:.2f}"
    q = lambda x, y: "-" if x is None or y is None else f"{x / y:.3f}"
    print(fmt.format(shape, a, m, f(rd), f(g), f(p), f(ref), q(p, g), q(ref, g), q(ref, p), d.get("sched", "")))
