#!/usr/bin/env python3
"""Plots a mixgemm-bench CSV (mixgemm-bench --csv PATH).

For every (shape, tp) of the CSV it writes
  speedup_<shape>_tp<tp>.png  speedup over cuBLAS fp16 (baseline time / kernel time, same
                              run) against M on a log2 axis, one line per mixgemm type config
                              and per other baseline; the dashed line at 1 is cuBLAS fp16
  floor_<shape>_tp<tp>.png    % of the weight-streaming floor at small M (M <= --small-m),
                              one bar per kernel and M; the dashed line is the floor (100%)
and speedup_all.png with one panel per (shape, tp).

Only rows with status "ok" are drawn. With several schedules per type config (--all-schedules)
the fastest row per (config, M) is drawn.

  python3 scripts/plot_bench.py bench/results/2026-11-30-h200/bench.csv --out plots/
"""
import argparse
import csv
import math
import os
import re
import sys
from collections import defaultdict

BASELINES = ("cublas_fp16", "cublas_bf16", "cublaslt_fp8", "cublaslt_fp8_fast", "cublaslt_int8")


def read_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        need = {"shape", "tp", "M", "kernel", "type_spec", "status", "us_median", "pct_floor", "x_cublas_fp16"}
        missing = need - set(reader.fieldnames or [])
        if missing:
            sys.exit(f"{path}: not a mixgemm-bench CSV (missing columns: {', '.join(sorted(missing))})")
        rows = []
        for r in reader:
            if r["status"] != "ok" or not r["us_median"] or r["kernel"] == "prepack":
                continue
            r["M"] = int(r["M"])
            r["tp"] = int(r["tp"])
            r["us_median"] = float(r["us_median"])
            r["pct_floor"] = float(r["pct_floor"]) if r["pct_floor"] else math.nan
            r["x_cublas_fp16"] = float(r["x_cublas_fp16"]) if r["x_cublas_fp16"] else math.nan
            r["label"] = r["type_spec"] if r["kernel"] == "mixgemm" else r["kernel"]
            rows.append(r)
        return rows


def best_per_label_and_m(rows):
    """{label: {M: row}} keeping the fastest row per (label, M)."""
    out = defaultdict(dict)
    for r in rows:
        cur = out[r["label"]].get(r["M"])
        if cur is None or r["us_median"] < cur["us_median"]:
            out[r["label"]][r["M"]] = r
    return out


def label_order(labels):
    base = [b for b in BASELINES if b in labels]
    return base + sorted(l for l in labels if l not in BASELINES)


def style(label):
    if label in BASELINES:
        return dict(linestyle="--", marker="x", linewidth=1.2, alpha=0.8)
    return dict(linestyle="-", marker="o", linewidth=1.8, markersize=4)


def draw_speedup(ax, groups, title):
    m_all = sorted({m for by_m in groups.values() for m in by_m})
    for label in label_order(groups):
        if label == "cublas_fp16":
            continue
        pts = sorted((m, r["x_cublas_fp16"]) for m, r in groups[label].items() if not math.isnan(r["x_cublas_fp16"]))
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=label, **style(label))
    ax.axhline(1.0, color="black", linestyle=":", linewidth=1, label="cublas_fp16")
    ax.set_xscale("log", base=2)
    if m_all:
        ax.set_xticks(m_all)
        ax.set_xticklabels([str(m) for m in m_all], rotation=45, fontsize=7)
    ax.set_xlabel("M (tokens)")
    ax.set_ylabel("speedup over cuBLAS fp16")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)


def draw_floor(ax, groups, small_m, title):
    labels = label_order(groups)
    ms = sorted({m for by_m in groups.values() for m in by_m if m <= small_m})
    if not ms or not labels:
        return False
    width = 0.8 / len(labels)
    for i, label in enumerate(labels):
        xs, ys = [], []
        for j, m in enumerate(ms):
            r = groups[label].get(m)
            if r is not None and not math.isnan(r["pct_floor"]):
                xs.append(j + (i - (len(labels) - 1) / 2) * width)
                ys.append(r["pct_floor"])
        if xs:
            ax.bar(xs, ys, width=width, label=label, hatch="//" if label in BASELINES else None,
                   alpha=0.6 if label in BASELINES else 0.9)
    ax.axhline(100.0, color="black", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(ms)))
    ax.set_xticklabels([str(m) for m in ms])
    ax.set_xlabel("M (tokens)")
    ax.set_ylabel("% of the weight-streaming floor (own bytes)")
    ax.set_title(title, fontsize=9)
    ax.grid(True, axis="y", alpha=0.3)
    return True


def safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="mixgemm-bench CSV")
    ap.add_argument("--out", default=None, help="folder for the PNGs (default: next to the CSV)")
    ap.add_argument("--small-m", type=int, default=16, help="largest M of the %%-of-floor plots (default 16)")
    ap.add_argument("--dpi", type=int, default=130)
    args = ap.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_bench.py needs matplotlib: python3 -m pip install matplotlib")

    rows = read_rows(args.csv)
    if not rows:
        sys.exit(f"{args.csv}: no timed rows with status ok")
    out = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(out, exist_ok=True)
    gpu = rows[0].get("gpu", "")

    by_shape = defaultdict(list)
    for r in rows:
        by_shape[(r["shape"], r["tp"])].append(r)
    keys = sorted(by_shape, key=lambda k: (k[0] != "seed", k[0], k[1]))
    written = []
    for shape, tp in keys:
        groups = best_per_label_and_m(by_shape[(shape, tp)])
        r0 = by_shape[(shape, tp)][0]
        title = f"{shape} tp{tp} (N={r0['N']}, K={r0['K']}) {gpu}"
        fig, ax = plt.subplots(figsize=(8, 5))
        draw_speedup(ax, groups, title)
        ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        path = os.path.join(out, f"speedup_{safe(shape)}_tp{tp}.png")
        fig.savefig(path, dpi=args.dpi)
        plt.close(fig)
        written.append(path)

        fig, ax = plt.subplots(figsize=(8, 5))
        if draw_floor(ax, groups, args.small_m, title):
            ax.legend(fontsize=7, ncol=2)
            fig.tight_layout()
            path = os.path.join(out, f"floor_{safe(shape)}_tp{tp}.png")
            fig.savefig(path, dpi=args.dpi)
            written.append(path)
        plt.close(fig)

    n = len(keys)
    cols = min(3, n)
    nrows = (n + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(6 * cols, 4.2 * nrows), squeeze=False)
    for i, (shape, tp) in enumerate(keys):
        ax = axes[i // cols][i % cols]
        r0 = by_shape[(shape, tp)][0]
        draw_speedup(ax, best_per_label_and_m(by_shape[(shape, tp)]), f"{shape} tp{tp} (N={r0['N']}, K={r0['K']})")
        if i == 0:
            ax.legend(fontsize=6, ncol=2)
    for j in range(n, nrows * cols):
        axes[j // cols][j % cols].axis("off")
    fig.suptitle(f"mixgemm speedup over cuBLAS fp16, {gpu}", fontsize=11)
    fig.tight_layout()
    path = os.path.join(out, "speedup_all.png")
    fig.savefig(path, dpi=args.dpi)
    plt.close(fig)
    written.append(path)
    for p in written:
        print(p)


if __name__ == "__main__":
    main()
