#!/usr/bin/env python3
"""mixgemm against an external reference kernel, point by point, from one mixgemm-bench CSV that
holds both (e.g. `mixgemm-bench --marlin`: rows kernel=marlin_w4a16), standard library only.

  python3 scripts/reference_compare.py BENCH.csv [--reference marlin_w4a16] [--markdown]

For every (shape, type spec, M) where both were timed: each kernel's median (us), its share of the
weight-streaming floor (the CSV's pct_floor: floor over the median, same run), each one's speedup
over cuBLAS fp16 when the CSV has that baseline, and reference time / mixgemm time (> 1: mixgemm is
faster). Then the geometric mean of that ratio per type spec and M range.
"""
import argparse
import csv
import math
from collections import defaultdict


def load(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r.get("status") == "ok" and r.get("us_median")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--reference", default="marlin_w4a16", help="the reference rows' kernel column")
    ap.add_argument("--markdown", action="store_true", help="a markdown table instead of aligned text")
    a = ap.parse_args()
    rows = load(a.csv)
    ours, ref, fp16 = {}, {}, {}
    order = []
    for r in rows:
        key = (r["shape"], r["type_spec"], int(r["M"]))
        if r["kernel"] == "mixgemm":
            ours[key] = r
            order.append(key)
        elif r["kernel"] == a.reference:
            ref[key] = r
        elif r["kernel"] == "cublas_fp16":
            fp16[(r["shape"], int(r["M"]))] = float(r["us_median"])
    cols = ["shape", "type", "M", "mixgemm us", "%floor", f"{a.reference} us", "%floor", "mixgemm x fp16",
            "ref x fp16", "ref / mixgemm", "schedule"]
    out = []
    ratios = defaultdict(list)
    for key in order:
        if key not in ref:
            continue
        o, f = ours[key], ref[key]
        to, tf = float(o["us_median"]), float(f["us_median"])
        base = fp16.get((key[0], key[2]))
        x = tf / to
        band = "M<=16" if key[2] <= 16 else "M=17..64" if key[2] <= 64 else "M>64"
        ratios[(key[1], band)].append(x)
        out.append([key[0], key[1], str(key[2]), f"{to:.2f}", f"{float(o['pct_floor']):.1f}", f"{tf:.2f}",
                    f"{float(f['pct_floor']):.1f}", f"{base / to:.2f}" if base else "",
                    f"{base / tf:.2f}" if base else "", f"{x:.2f}", o["schedule"]])
    if a.markdown:
        print("| " + " | ".join(cols) + " |")
        print("|" + "---|" * len(cols))
        for line in out:
            print("| " + " | ".join(line) + " |")
    else:
        w = [max(len(c), *(len(line[i]) for line in out)) if out else len(c) for i, c in enumerate(cols)]
        print("  ".join(c.rjust(w[i]) for i, c in enumerate(cols)))
        for line in out:
            print("  ".join(v.rjust(w[i]) for i, v in enumerate(line)))
    print()
    print(f"geomean of {a.reference} time / mixgemm time (> 1: mixgemm faster):")
    for (spec, band), xs in sorted(ratios.items()):
        g = math.exp(sum(math.log(v) for v in xs) / len(xs))
        print(f"  {spec:16s} {band:9s} {g:.3f}  ({len(xs)} points, {min(xs):.2f} .. {max(xs):.2f})")


if __name__ == "__main__":
    main()
