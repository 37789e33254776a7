#!/usr/bin/env python3
"""Summary of a symmetric multi-variant bench run (device_sm90_multi.sh, device_smallm_sched.sh).

usage: ab_multi_summary.py DIR BASE VARIANT...
DIR holds NAME-1.csv and NAME-2.csv (mixgemm-bench --csv; or .csv.gz) for the base and every variant, run in the
order base v1 .. vN vN .. v1 base. Prints each variant's time / base per type and M (geomean over the
shapes of both runs), per M and the base's schedule (geomean over shapes and types: where a change is in one
tile's code), and, per point, the base's mean time and each variant's ratio.
"""
import csv
import gzip
import math
import os
import signal
import sys


def load(path, field="us_median"):
    """Per point (shape, type, M) of a mixgemm-bench CSV (or its committed .csv.gz): its median time, or another
    column's text."""
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        path += ".gz"
    if not os.path.exists(path):
        return {}
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return {(r["shape"], r["type_spec"], int(r["M"])): float(r[field]) if field == "us_median" else r[field]
                for r in csv.DictReader(f) if r["kernel"] == "mixgemm" and r["us_median"]}


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    d, names = argv[1], argv[2:]
    runs = {n: (load(os.path.join(d, n + "-1.csv")), load(os.path.join(d, n + "-2.csv"))) for n in names}
    base = names[0]
    b1, b2 = runs[base]
    for n in names[1:]:
        c1, c2 = runs[n]
        keys = [k for k in b1 if k in b2 and k in c1 and k in c2]
        for t in sorted({k[1] for k in keys}):
            for m in sorted({k[2] for k in keys}):
                logs = [math.log((c1[k] + c2[k]) / (b1[k] + b2[k])) for k in keys if k[1] == t and k[2] == m]
                if logs:
                    print(f"{n:14s}/{base} geomean {t:16s} M={m:5d}: {math.exp(sum(logs) / len(logs)):.4f} "
                          f"over {len(logs)}")
        sched = load(os.path.join(d, base + "-1.csv"), "schedule")
        for m in sorted({k[2] for k in keys}):
            for sc in sorted({sched.get(k, "?") for k in keys if k[2] == m}):
                logs = [math.log((c1[k] + c2[k]) / (b1[k] + b2[k])) for k in keys if k[2] == m and sched.get(k, "?") == sc]
                print(f"{n:14s}/{base} geomean M={m:5d} {sc:34s}: {math.exp(sum(logs) / len(logs)):.4f} "
                      f"over {len(logs)}")
    keys = sorted(k for k in b1 if all(k in runs[n][0] and k in runs[n][1] for n in names))
    print(f"{'shape':20s} {'type':16s} {'M':>5s} " + " ".join(f"{n:>14s}" for n in names))
    for k in keys:
        mean = (b1[k] + b2[k]) / 2
        cols = [f"{mean:14.2f}"] + [f"{(runs[n][0][k] + runs[n][1][k]) / 2 / mean:14.3f}" for n in names[1:]]
        print(f"{k[0]:20s} {k[1]:16s} {k[2]:5d} " + " ".join(cols))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the listing quietly
    sys.exit(main(sys.argv))
