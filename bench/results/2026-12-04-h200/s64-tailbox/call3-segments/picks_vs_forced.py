#!/usr/bin/env python3
"""The heuristic's picks against each forced tile, all on the merged variant's build (tailbox_seg) of one call.

    python3 picks_vs_forced.py [DIR]   (DIR: this folder; reads multi / t128x128 / t128x256 / t128x64 .tar.gz)

One line per (layer, type, M): the pick's schedule and time and each forced tile's time (mean of the two ABBA
runs' medians, us); "<-- r" where the pick takes r > 1.04x the fastest of them. Session 64: after the exact tail box
the pick is the fastest of these at 87 of 90 points, within 2% at 89 (Llama-3-8B qkv s8 M = 48: 1.08x against 128 x 64).
"""
import collections, csv, io, statistics, sys, tarfile
from pathlib import Path

d = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
runs = {}
for name in ("multi", "t128x128", "t128x256", "t128x64"):
    times, sched = collections.defaultdict(list), {}
    with tarfile.open(d / f"{name}.tar.gz") as tar:
        for m in tar.getmembers():
            if m.name.rsplit("/", 1)[-1].startswith("tailbox_seg-") and m.name.endswith(".csv"):
                for r in csv.DictReader(io.TextIOWrapper(tar.extractfile(m))):
                    k = (r["shape"], r["type_spec"], int(r["M"]))
                    times[k].append(float(r["us_median"]))
                    sched[k] = r["schedule"]
    runs[name] = ({k: statistics.mean(v) for k, v in times.items()}, sched)
picks, ps = runs["multi"]
forced = ("t128x128", "t128x256", "t128x64")
print(f"{'layer':22} {'type':15} {'M':>5} {'pick':40} {'pick_us':>8} " + " ".join(f"{f[1:]:>8}" for f in forced))
for k in sorted(picks):
    row = [runs[f][0].get(k, float("nan")) for f in forced]
    best = min([picks[k]] + row)
    flag = f"  <-- {picks[k] / best:.2f}" if picks[k] / best > 1.04 else ""
    print(f"{k[0]:22} {k[1]:15} {k[2]:5d} {ps[k][:40]:40} {picks[k]:8.1f} " + " ".join(f"{t:8.1f}" for t in row) + flag)
