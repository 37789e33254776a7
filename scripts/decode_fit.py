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

  python3 scripts/decode_fit.py bench/results/<date>-h200/<run>/bench.csv [M list, default 1,8,16]
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
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    ms = {int(m) for m in (sys.argv[2] if len(sys.argv) > 2 else "1,8,16").split(",")}
    groups = collections.defaultdict(list)
    for r in csv.DictReader(open(sys.argv[1])):
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


if __name__ == "__main__":
    main()
