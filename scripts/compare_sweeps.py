#!/usr/bin/env python3
"""Two bench sweeps (mixgemm-bench CSVs, e.g. an older H200 sweep and a newer one) at the points both have.

    python3 scripts/compare_sweeps.py OLD/bench.csv NEW/bench.csv [--names s65,s86] [--baseline-ratio]

Prints the copy bandwidth of each run and cuBLAS fp16's time new / old (the floors and the bars' denominators move
with the run); per point whose mixgemm schedule changed, the time ratio new / old, % of the floor before -> after and
both schedules; per (type, M) the geomean time ratio over moved and unmoved points. With --baseline-ratio also the
geomean of new / old per baseline kernel and M band. (Session 81's s81-sweep-small/compare.py, removed in session 86,
was this script with its two paths fixed: same output.)"""
import argparse, csv, math
from collections import defaultdict


def load(path):
    ours, base, bw = {}, defaultdict(dict), set()
    for r in csv.DictReader(open(path)):
        if r["status"] != "ok":
            continue
        k = (r["type_spec"], r["shape"], int(r["M"]))
        if r["kernel"] == "mixgemm":
            ours[k] = (float(r["us_median"]), r["schedule"], float(r["pct_floor"] or "nan"))
            bw.add(round(float(r["copy_gbps"])))
        else:
            base[r["kernel"]][(r["shape"], int(r["M"]))] = float(r["us_median"])
    return ours, base, bw


def geo(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


def span(v):
    return f"{geo(v):.3f} [{min(v):.3f}, {max(v):.3f}] n={len(v)}" if v else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--names", default="old,new", help="labels of the two runs, comma-separated")
    ap.add_argument("--baseline-ratio", action="store_true", help="also new / old per baseline kernel and M band")
    args = ap.parse_args()
    na, nb = args.names.split(",")
    a, base_a, bwa = load(args.old)
    b, base_b, bwb = load(args.new)
    print(f"copy bandwidth GB/s: {na} {sorted(bwa)}  {nb} {sorted(bwb)}")
    ca, cb = base_a.get("cublas_fp16", {}), base_b.get("cublas_fp16", {})
    cr = [cb[k] / ca[k] for k in cb if k in ca]
    if cr:
        print(f"cuBLAS fp16 time {nb} / {na} over {len(cr)} points: geomean {geo(cr):.3f} [{min(cr):.3f}, {max(cr):.3f}]")
    if args.baseline_ratio:
        for kern in sorted(k for k in set(base_a) & set(base_b) if k.startswith("cublas")):
            bands = defaultdict(list)
            for k, t in base_b[kern].items():
                if k in base_a[kern]:
                    m = k[1]
                    bands["M<=64" if m <= 64 else "M=65..512" if m <= 512 else "M>=513"].append(t / base_a[kern][k])
            for band in ("M<=64", "M=65..512", "M>=513"):
                if bands[band]:
                    print(f"  {kern:20} {band:10} {span(bands[band])}")
    moved, same = defaultdict(list), defaultdict(list)
    print(f"points whose schedule changed ({na} -> {nb}): time ratio, % floor before -> after")
    for k in sorted(set(a) & set(b)):
        r = b[k][0] / a[k][0]
        if a[k][1] != b[k][1]:
            moved[(k[0], k[2])].append(r)
            print(f"  {k[0]:16} {k[1]:16} M={k[2]:2} {r:.3f}  {a[k][2]:5.1f} -> {b[k][2]:5.1f}  {a[k][1]} -> {b[k][1]}")
        else:
            same[(k[0], k[2])].append(r)
    print(f"type M: geomean time ratio {nb} / {na} [min, max] (n) over moved | unmoved points")
    for t in sorted(set(moved) | set(same)):
        print(f"  {t[0]:16} M={t[1]:2}: {span(moved.get(t, [])):32} | {span(same.get(t, []))}")


if __name__ == "__main__":
    main()
