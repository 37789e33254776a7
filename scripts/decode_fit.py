#!/usr/bin/env python3
"""A decode launch's time split into a fixed part and a per-byte part, from one mixgemm-bench CSV (standard library).

For every (type config, M, kernel family) with at least three shapes in the CSV, a least-squares line through
(floor_us, us_median) over the shapes:

    us_median = fixed + slope * floor_us

floor_us is the row's weight-streaming floor (weight + scale + activation + output bytes over the run's copy
bandwidth), so slope is the time per floor-microsecond once a launch runs (1.0: the loop keeps pace with the copy
bandwidth; above 1: its own issue, not the stream, sets the pace) and fixed is what a launch costs beyond that (the
launch itself, the prologue and first stage, the split-K tail, the SMs' spread). The family is smallm, or the sm90 tile
(sm90_256x16, ...).

What #6's bar (85% of the floor) needs under this line: fixed + slope * floor <= floor / 0.85, i.e. a slope below
1 / 0.85 = 1.176 and then fixed <= (1 / 0.85 - slope) * floor. The last column prints that allowance at the smallest and
largest floor of the fit (negative: no fixed part meets the bar at that slope).

The second table is for #6's bars against cuBLAS fp16 at M = 32 (3.0x) and M = 64 (2.5x W4A16, 3.0x W4A8), per
shape: the time the bar allows (cuBLAS fp16's time in the same run over the ratio), ours, and T0 + floor, what a launch
that only read its bytes at the copy bandwidth would take (T0 = 3.7 us: the empty launch of a decode grid in this
event-timed measurement, bench/results/2026-12-01-h200/s24-pdl/stream-read.csv; --t0 sets another).

  python3 scripts/decode_fit.py bench/results/<date>-h200/<run>/bench.csv [M list, default 1,8,16] [--t0 US]
"""
import collections
import csv
import sys


def fit(points):
    """(fixed, slope, largest relative residual) of the least-squares line through [(x, y)]."""
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    fixed = (sy - slope * sx) / n
    return fixed, slope, max(abs(y - fixed - slope * x) / y for x, y in points)


def main():
    args = sys.argv[1:]
    t0 = 3.7
    if "--t0" in args:
        i = args.index("--t0")
        t0 = float(args[i + 1])
        del args[i:i + 2]
    if not args:
        sys.exit(__doc__)
    ms = {int(m) for m in (args[1] if len(args) > 1 else "1,8,16").split(",")}
    rows = list(csv.DictReader(open(args[0])))
    groups = collections.defaultdict(list)
    for r in rows:
        if r.get("kernel") != "mixgemm" or r.get("status") != "ok" or not r.get("floor_us") or int(r["M"]) not in ms:
            continue
        parts = r["schedule"].split("_")
        family = parts[0] + ("_" + parts[1] if parts[0] == "sm90" else "")
        groups[(r["type_spec"], int(r["M"]), family)].append((float(r["floor_us"]), float(r["us_median"])))
    print(f"{'type':16} {'M':>3} {'family':12} {'shapes':>6} {'fixed us':>8} {'slope':>6} {'max resid':>9}"
          "  fixed the 85% bar allows at the smallest / largest floor (us)")
    for (type_spec, m, family), points in sorted(groups.items()):
        if len(points) < 3:
            continue
        fixed, slope, resid = fit(points)
        allow = [(1 / 0.85 - slope) * f for f in (min(x for x, _ in points), max(x for x, _ in points))]
        print(f"{type_spec:16} {m:>3} {family:12} {len(points):>6} {fixed:8.1f} {slope:6.3f} {100 * resid:8.1f}%"
              f"  {allow[0]:6.1f} / {allow[1]:6.1f}")
    cublas = {(r["shape"], r["M"]): float(r["us_median"]) for r in rows
              if r.get("kernel") == "cublas_fp16" and r.get("status") == "ok" and r.get("us_median")}
    bar_rows = []
    for r in rows:
        ts = r.get("type_spec", "")
        if r.get("kernel") != "mixgemm" or r.get("status") != "ok" or r["M"] not in ("32", "64"):
            continue
        if not ts.endswith(".g128") or ts.split(".")[0] not in ("f16", "s8", "e4m3") or (r["shape"], r["M"]) not in cublas:
            continue
        bar = 2.5 if (r["M"] == "64" and ts.startswith("f16")) else 3.0
        floor = float(r["floor_us"])
        allowed = cublas[(r["shape"], r["M"])] / bar
        bar_rows.append((ts, int(r["M"]), r["shape"], bar, allowed, float(r["us_median"]), t0 + floor))
    if bar_rows:
        print(f"\n{'type':16} {'M':>3} {'shape':20} {'bar':>4} {'allowed':>8} {'ours':>7} {'T0+floor':>8}  (us; T0 = {t0})")
        for ts, m, shape, bar, allowed, ours, read in sorted(bar_rows):
            note = "  a pure read misses" if read > allowed else ""
            print(f"{ts:16} {m:>3} {shape:20} {bar:4.1f} {allowed:8.1f} {ours:7.1f} {read:8.1f}{note}")


if __name__ == "__main__":
    main()
