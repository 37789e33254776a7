#!/usr/bin/env python3
"""Markdown tables for docs/performance.md from a mixgemm-bench CSV (standard library only).

For every shape: one row per M with the cuBLAS baselines' times and, per mixgemm type
config, its time, % of the weight-streaming floor and speedup over cuBLAS fp16 (ratios
measured in the same run, as the CSV records them).

  python3 scripts/perf_tables.py bench/results/2026-11-30-h200/bench.csv > tables.md
"""
import csv
import sys
from collections import OrderedDict


def main(path):
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "ok" and r["kernel"] != "prepack"]
    shapes = OrderedDict()
    for r in rows:
        shapes.setdefault((r["shape"], r["N"], r["K"], r["tp"]), []).append(r)
    baselines = ["cublas_fp16", "cublas_bf16", "cublaslt_fp8", "cublaslt_int8"]
    for (shape, n, k, tp), rs in shapes.items():
        configs = list(OrderedDict.fromkeys(r["type_spec"] for r in rs if r["kernel"] == "mixgemm"))
        print(f"\n#### {shape} (N={n}, K={k}, tp={tp})\n")
        head = ["M"] + [f"{b} us" for b in baselines]
        for c in configs:
            head += [f"{c} us", "% floor", "x fp16", "schedule"]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        by_m = OrderedDict()
        for r in rs:
            by_m.setdefault(int(r["M"]), {})[r["kernel"] if r["kernel"] != "mixgemm" else r["type_spec"]] = r
        for m in sorted(by_m):
            d = by_m[m]
            cells = [str(m)]
            for b in baselines:
                cells.append(f'{float(d[b]["us_median"]):.1f}' if b in d else "-")
            for c in configs:
                if c in d:
                    r = d[c]
                    cells += [f'{float(r["us_median"]):.1f}', f'{float(r["pct_floor"]):.0f}%',
                              f'{float(r["x_cublas_fp16"]):.2f}x', r["schedule"]]
                else:
                    cells += ["-", "-", "-", "-"]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
