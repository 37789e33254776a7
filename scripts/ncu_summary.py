#!/usr/bin/env python3
"""Summarize Nsight Compute SASS source exports (``ncu -i X --page source --csv
--print-source sass``): total warp instructions, the opcodes that dominate them, and
the instructions with the most stall samples. Used by scripts/profile_*.sh.

    python3 scripts/ncu_summary.py OUT/source_*.csv
"""
import csv
import os
import sys
from collections import Counter


def summarize(path: str) -> None:
    rows = list(csv.reader(open(path)))
    if len(rows) < 3:
        print(path, "no data")
        return
    hdr, data = rows[1], rows[2:]
    i_exec = hdr.index("Instructions Executed")
    i_stall = hdr.index("Warp Stall Sampling (All Samples)")
    ops, total = Counter(), 0
    for r in data:
        if r[i_exec].isdigit():
            n = int(r[i_exec])
            total += n
            t = r[1].split()
            op = t[1] if t and t[0].startswith("@") and len(t) > 1 else (t[0] if t else "?")
            ops[op.split(".")[0]] += n
    print(f"== {os.path.basename(path)}: {total} warp instructions")
    print("   top opcodes:", ", ".join(f"{k} {v}" for k, v in ops.most_common(14)))
    hot = sorted((r for r in data if r[i_stall].isdigit()), key=lambda r: -int(r[i_stall]))[:12]
    for r in hot:
        print(f"   stall {r[i_stall]:>6} exec {r[i_exec]:>9}  {r[1].strip()[:90]}")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        summarize(p)
