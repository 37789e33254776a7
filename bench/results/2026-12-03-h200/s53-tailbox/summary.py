#!/usr/bin/env python3
"""Per-point table of a session-53 call: python3 summary.py call1/ab.tar.gz | call2/multi.tar.gz.
Each variant's two runs (ABBA order) are averaged; the ratio is variant / base per point."""
import csv, io, sys, tarfile
tf = tarfile.open(sys.argv[1])
runs = {}
for m in tf.getmembers():
    if m.name.endswith(".csv"):
        stem = m.name.rsplit("/", 1)[1][:-4]
        rows = csv.DictReader(io.TextIOWrapper(tf.extractfile(m)))
        runs[stem] = {(r["shape"], r["type_spec"], int(r["M"])): (float(r["us_median"]), r["schedule"])
                      for r in rows if r["kernel"] == "mixgemm" and r["us_median"]}
if "base2" in runs:  # device_sm90_ab.sh: base cand cand2 base2
    pairs = {"base": ("base", "base2"), "cand": ("cand", "cand2")}
else:  # device_sm90_multi.sh: <v>-1 / <v>-2
    pairs = {v[:-2]: (v[:-2] + "-1", v[:-2] + "-2") for v in runs if v.endswith("-1")}
names = ["base"] + sorted(v for v in pairs if v != "base")
mean = lambda v, k: (runs[pairs[v][0]][k][0] + runs[pairs[v][1]][k][0]) / 2
print(f"{'shape':20s} {'type':15s} {'M':>5s} {'schedule (base)':34s} {'base us':>8s} " +
      " ".join(f"{v + '/base':>16s}" for v in names[1:]))
for k in sorted(runs[pairs["base"][0]]):
    b = mean("base", k)
    print(f"{k[0]:20s} {k[1]:15s} {k[2]:5d} {runs[pairs['base'][0]][k][1]:34s} {b:8.1f} " +
          " ".join(f"{mean(v, k) / b:16.3f}" for v in names[1:]))
