#!/usr/bin/env python3
"""The issues' performance bars, point by point, from mixgemm-bench sweep CSVs (standard
library only). Every ratio is the CSV's own (baseline and mixgemm in the same run).

  python3 scripts/bar_status.py bench/results/<date>-h200/<run>/sweep/bench.csv [MORE.csv ...]
  python3 scripts/bar_status.py --tables SWEEP.csv [MORE.csv ...]   (docs/performance.md's W4A16 floor and decode tables)
Several CSVs are read as one sweep (e.g. a capped sweep and the rerun of what the cap left out, `--shapes
llama2-70b/down`); every ratio stays its own run's, and a (shape, tp, M, type, schedule) point that two CSVs both hold
is an error.

Bars (issues #4, #5, #6; shapes: seed + the four Llama-2-70B layers):
  #4 W4A16 u4b8 g128 (f16, bf16) x cuBLAS fp16: M >= 1024 >= 1.0, M = 512 >= 1.1, 256 >= 1.2,
     128 >= 1.6, 64 >= 2.5
  #5 W4A8 u4b8 (s8, e4m3; g128 and per-channel): M >= 1024 >= 0.9 x cuBLASLt fp8,
     M = 256 >= 2.0 x cuBLAS fp16
  #6 g128 (f16, s8, e4m3): M = 1, 2, 4, 8, 16 >= 85% of the weight-streaming floor; M = 32 >= 3.0x
     cuBLAS fp16; M = 64 >= 2.5x (W4A16) / 3.0x (W4A8)
The summary also says how far the missed points are: the share of a point's time that would have to
go for it to meet its bar (every measure is inversely proportional to the row's time, so that share is
1 - value / bar), as the median and the largest over the missed points of each bar.
When the CSV has cublaslt_fp8_fast rows (cuBLASLt fp8 without promoted accumulation, like for like
with the sm90 e4m3 path), #5's M >= 1024 bar is also counted against them ("#5 like-for-like",
column x_cublaslt_fp8_fast = that baseline's median / the row's, same run): information, not the bar.
The first line names the card of the CSV's rows; the bars are set on the H200, so on another card the
same ratios (against that card's own baselines) are marked as information, not the bars. A run timed in CUDA
graphs (--graph-batch, read from the bench.txt beside the CSV) says so on the next line.
"""
import csv
import os
import sys
from collections import OrderedDict


def bars(type_spec, m):
    """[(what, column, threshold)] for one (type config, M)."""
    a = type_spec.split(".")[0]
    g128 = type_spec.endswith(".g128")
    w4a16 = a in ("f16", "bf16")
    out = []
    if w4a16 and g128:
        need = {64: 2.5, 128: 1.6, 256: 1.2, 512: 1.1}.get(m, 1.0 if m >= 1024 else None)
        if need is not None:
            out.append(("#4", "x_cublas_fp16", need))
    if a in ("s8", "e4m3"):
        if m >= 1024:
            out.append(("#5", "x_cublas_fp8", 0.9))
            out.append(("#5 like-for-like", "x_cublaslt_fp8_fast", 0.9))
        if m == 256:
            out.append(("#5", "x_cublas_fp16", 2.0))
    if g128 and a in ("f16", "s8", "e4m3"):
        if m in (1, 2, 4, 8, 16):
            out.append(("#6", "pct_floor", 85.0))
        if m == 32:
            out.append(("#6", "x_cublas_fp16", 3.0))
        if m == 64:
            out.append(("#6", "x_cublas_fp16", 2.5 if w4a16 else 3.0))
    return out


def w4a16_floor_table(rows):
    """Per (shape, M >= 64) of f16/bf16 u4b8 g128: the bar, both measured ratios, the f16 rate and
    the rate the bar needs (also as a share of the highest f16 rate of any row of the CSV: what the
    board sustained under its power limit, session 55), and the f16 time over its binding floor (the
    int4 weight-streaming floor or the fp16 tensor-core floor at the datasheet's 989 TFLOP/s,
    whichever is larger)."""
    by = {}
    for r in rows:
        by[(r["shape"], int(r["M"]), r["type_spec"])] = r
    best = max((float(r["tflops"]) for r in rows if r["a_type"] == "f16" and r.get("tflops")), default=0.0)
    print(f"(best f16 rate in this CSV: {best:.0f} TFLOP/s)")
    print("| shape | M | bar (x cuBLAS fp16) | f16 measured | bf16 measured | schedule | f16 TFLOP/s | "
          "TFLOP/s the bar needs | needs / best f16 rate | int4 floor us | fp16 compute floor us (989) | "
          "f16 time / binding floor |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (shape, m, t), r in by.items():
        if t != "f16.u4b8.g128" or m < 64:
            continue
        need = {64: 2.5, 128: 1.6, 256: 1.2, 512: 1.1}.get(m, 1.0)
        b = by.get((shape, m, "bf16.u4b8.g128"))
        n, k = int(r["N"]), int(r["K"])
        us = float(r["us_median"])
        x = float(r["x_cublas_fp16"])
        flop = 2.0 * m * n * k
        cublas_us = us * x
        comp = flop / 989e12 * 1e6
        floor = max(float(r["floor_us"]), comp)
        needs = flop / (cublas_us / need) / 1e6  # TFLOP/s
        mark = lambda v: f"{v:.2f}x" + ("" if v >= need else " **not met**")
        print(f"| {shape} | {m} | {need} | {mark(x)} | {mark(float(b['x_cublas_fp16'])) if b else '-'} | "
              f"{r['schedule'].replace('_1x1x1_coop_splitk', '')} | {flop / us / 1e6:.0f} | "
              f"{needs:.0f} | {needs / best:.2f} | {float(r['floor_us']):.1f} | {comp:.1f} | "
              f"{us / floor:.2f}x ({100 * floor / us:.0f}%) |")


def decode_table(rows):
    """% of the weight-streaming floor at M = 1..16, x cuBLAS fp16 at M = 32 / 64, g128 configs."""
    by = {}
    for r in rows:
        if r["type_spec"].endswith(".g128") and r["a_type"] in ("f16", "s8", "e4m3"):
            by.setdefault((r["shape"], r["type_spec"]), {})[int(r["M"])] = r
    print("| shape | config | M=1 | 2 | 4 | 8 | 16 | M=32 x fp16 | M=64 x fp16 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (shape, t), d in by.items():
        cells = []
        for m in (1, 2, 4, 8, 16):
            v = float(d[m]["pct_floor"]) if m in d else None
            cells.append("-" if v is None else f"{v:.0f}%" + (" (met)" if v >= 85 else ""))
        for m in (32, 64):
            cells.append(f"{float(d[m]['x_cublas_fp16']):.2f}x" if m in d else "-")
        print(f"| {shape} | {t} | " + " | ".join(cells) + " |")


def read_rows(paths):
    """The rows of every CSV; a mixgemm point (shape, tp, M, type spec, schedule) in two of them is refused."""
    every, seen = [], {}
    for i, path in enumerate(paths):
        for r in csv.DictReader(open(path)):
            if r["kernel"] == "mixgemm":
                key = (r["shape"], r["tp"], r["M"], r["type_spec"], r["schedule"])
                if key in seen and seen[key][0] != i:
                    sys.exit(f"bar_status.py: {key} is in both {seen[key][1]} and {path}")
                seen[key] = (i, path)
            every.append(r)
    return every


def main(paths):
    every = read_rows(paths)
    fast = {(r["shape"], r["tp"], r["M"]): float(r["us_median"]) for r in every
            if r["kernel"] == "cublaslt_fp8_fast" and r["status"] == "ok" and r["us_median"]}
    rows = [r for r in every if r["kernel"] == "mixgemm" and r["status"] == "ok"]
    for r in rows:
        f = fast.get((r["shape"], r["tp"], r["M"]))
        r["x_cublaslt_fp8_fast"] = f"{f / float(r['us_median']):.4f}" if f and r["us_median"] else ""
    # The bars are the issues' H200 bars; on another card the same ratios against that card's own baselines are
    # information about it, not the bars (say which card ran, first).
    cards = sorted({r.get("gpu", "") for r in rows if r.get("gpu")})
    note = "" if cards and all("H200" in c for c in cards) else \
        " (the issues set these bars on the H200: on this card the ratios are information, not the bars)"
    print(f"card: {', '.join(cards) or 'unknown'}{note}")
    # The CSV does not say how its rows were timed; the bench's table (bench.txt beside it) does. The standing bars
    # are read from event-timed sweeps; a --graph-batch run (an engine's decode graph) is said to be one.
    for path in paths:
        txt = os.path.join(os.path.dirname(path) or ".", "bench.txt")
        timing = next((l.strip() for l in open(txt) if l.startswith("timing:")), None) if os.path.exists(txt) else None
        if timing and "CUDA graph" in timing:
            print(f"{timing} (CUDA graphs: the standing bars are read from event-timed sweeps)"
                  + (f" [{path}]" if len(paths) > 1 else ""))
    print()
    tally = OrderedDict()
    lines = []
    for r in rows:
        m = int(r["M"])
        for issue, col, need in bars(r["type_spec"], m):
            if not r.get(col):
                continue
            v = float(r[col])
            ok = v >= need
            key = (issue, r["type_spec"], col, "M>=1024" if m >= 1024 else f"M={m}")
            t = tally.setdefault(key, [0, 0, v, v, []])
            t[0] += ok
            t[1] += 1
            t[2] = min(t[2], v)
            t[3] = max(t[3], v)
            if not ok:
                t[4].append(1.0 - v / need)  # share of the time to cut to meet the bar
            lines.append(f"| {issue} | {r['shape']} | {r['type_spec']} | {m} | {col} | {v:.2f} | {need} | "
                         f"{'met' if ok else '**not met**'} | {r['schedule']} |")
    print("| issue | type | measure | M | met / points | range | time to cut where missed: median / max |")
    print("|---|---|---|---|---|---|---|")
    for (issue, t, col, mk), (ok, n, lo, hi, cut) in tally.items():
        c = sorted(cut)
        pc = lambda x: f"{100 * x:.1f}%" if x < 0.1 else f"{100 * x:.0f}%"  # noqa: E731
        gap = f"{pc(c[len(c) // 2])} / {pc(c[-1])}" if c else "-"
        print(f"| {issue} | {t} | {col} | {mk} | {ok} / {n} | {lo:.2f} - {hi:.2f} | {gap} |")
    print()
    print("| issue | shape | type | M | measure | value | bar | | schedule |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(lines))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit(__doc__)
    if "--tables" in sys.argv:
        ok = [r for r in read_rows(args) if r["kernel"] == "mixgemm" and r["status"] == "ok"]
        w4a16_floor_table(ok)
        print()
        decode_table(ok)
    else:
        main(args)
