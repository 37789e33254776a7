#!/usr/bin/env python3
"""Markdown tables for docs/performance.md from a mixgemm-bench CSV (standard library only).

For every shape: one row per M with the cuBLAS baselines' times and, per mixgemm type
config, its time, % of the weight-streaming floor and speedup over cuBLAS fp16 (ratios
measured in the same run, as the CSV records them).

  python3 scripts/perf_tables.py bench/results/2026-11-30-h200/bench.csv > tables.md
  python3 scripts/perf_tables.py --compact SWEEP.csv [OVERRIDE.csv]   (docs/performance.md's form)
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


def compact(path, override=None):
    """One table per shape, one row per M: cuBLAS fp16 and cuBLASLt fp8 times, then per
    mixgemm config `us (% floor, x fp16)` for 16-bit activations and `us (x fp16 / x fp8)`
    for 8-bit ones, the f16 schedule, and the int4 floor. Rows of `override` (another run's
    CSV, e.g. a re-measurement after a heuristic change) replace the same (shape, M, config)
    and are marked with a dagger; their ratios are from their own run."""
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "ok" and r["kernel"] != "prepack"]
    over = {}
    if override:
        for r in csv.DictReader(open(override)):
            if r["status"] == "ok" and r["kernel"] == "mixgemm":
                over[(r["shape"], r["M"], r["type_spec"])] = r
    shapes = OrderedDict()
    for r in rows:
        shapes.setdefault((r["shape"], r["N"], r["K"]), OrderedDict()).setdefault(int(r["M"]), {})[
            r["kernel"] if r["kernel"] != "mixgemm" else r["type_spec"]] = r
    configs = list(OrderedDict.fromkeys(r["type_spec"] for r in rows if r["kernel"] == "mixgemm"))
    for (shape, n, k), by_m in shapes.items():
        print(f"\n#### {shape} (N={n}, K={k})\n")
        head = ["M", "cuBLAS fp16", "cuBLASLt fp8"] + configs[:1] + ["schedule"] + configs[1:] + ["int4 floor"]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for m, d in by_m.items():
            cells = [str(m)] + [f'{float(d[b]["us_median"]):.1f}' if b in d else "-" for b in ("cublas_fp16", "cublaslt_fp8")]
            floor = "-"
            for i, c in enumerate(configs):
                r, mark = d.get(c), ""
                if (shape, str(m), c) in over:
                    r, mark = over[(shape, str(m), c)], "\u2020"
                if r is None:
                    cells.append("-")
                else:
                    if floor == "-":  # the first config's floor (the others' bytes differ: 8-bit, per-channel)
                        floor = f'{float(r["floor_us"]):.1f}'
                    if r["a_type"] in ("s8", "e4m3"):
                        cells.append(f'{float(r["us_median"]):.1f}{mark} ({float(r["x_cublas_fp16"]):.2f} / '
                                     f'{float(r["x_cublas_fp8"]):.2f})')
                    else:
                        cells.append(f'{float(r["us_median"]):.1f}{mark} ({float(r["pct_floor"]):.0f}%, '
                                     f'{float(r["x_cublas_fp16"]):.2f}x)')
                if i == 0:
                    sch = r["schedule"] if r is not None else "-"
                    cells.append(sch.replace("_1x1x1_coop_splitk", "").replace("_p0", ""))
            print("| " + " | ".join(cells + [floor]) + " |")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--compact":
        compact(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        sys.exit(__doc__)
