#!/usr/bin/env python3
"""#6's decode rows by shape: % of the weight-streaming floor per (shape, type config, M) from one mixgemm-bench CSV,
as the markdown table docs/performance.md ("Against the bars") shows; `*` marks an sm90 schedule (else smallm).

    python3 scripts/decode_table.py bench/results/<date>-h200/<run>/bench.csv [--m 1,8,16]
"""
import argparse
import csv

TYPES = [("f16.u4b8.g128", "f16"), ("bf16.u4b8.g128", "bf16"), ("s8.u4b8.g128", "s8"), ("s8.u4b8.gch", "s8 gch"),
         ("e4m3.u4b8.g128", "e4m3"), ("e4m3.u4b8.gch", "e4m3 gch")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--m", default="1,8,16", help="the M values of each cell, comma-separated")
    args = ap.parse_args()
    ms = [int(m) for m in args.m.split(",")]
    rows, shapes = {}, []
    for r in csv.DictReader(open(args.csv)):
        if r["kernel"] != "mixgemm" or r["status"] != "ok" or not r["pct_floor"]:
            continue
        rows[(r["shape"], r["type_spec"], int(r["M"]))] = (float(r["pct_floor"]), r["schedule"])
        if r["shape"] not in shapes:
            shapes.append(r["shape"])
    types = [(t, n) for t, n in TYPES if any(k[1] == t for k in rows)]
    mlab = " / ".join(map(str, ms))
    print("| shape | " + " | ".join(f"{n} M={mlab}" for _, n in types) + " |")
    print("|---" * (len(types) + 1) + "|")
    for sh in shapes:
        cells = []
        for t, _ in types:
            c = []
            for m in ms:
                v = rows.get((sh, t, m))
                c.append("-" if v is None else f"{v[0]:.0f}" + ("*" if v[1].startswith("sm90") else ""))
            cells.append(" / ".join(c))
        print(f"| {sh} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
