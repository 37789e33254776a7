#!/usr/bin/env python3
"""Summarize Nsight Compute SASS source exports (``ncu -i X --page source --csv
--print-source sass``): total warp instructions, the opcodes that dominate them, and
the instructions with the most stall samples. Used by scripts/profile_*.sh.

    python3 scripts/ncu_summary.py [--reasons] [--by-op] OUT/source_*.csv[.gz]

--reasons also sums the per-reason stall samples (stall_barrier, stall_wait, ...) over
every instruction: where the warps' time goes. --by-op sums the stall samples per opcode
(LDGSTS, HMMA, ...) with each one's three leading reasons.
"""
import csv
import gzip
import os
import sys
from collections import Counter


def opcode(row) -> str:
    """The opcode of a source-page row's SASS text, without its predicate and modifiers."""
    t = row[1].split()
    op = t[1] if t and t[0].startswith("@") and len(t) > 1 else (t[0] if t else "?")
    return op.split(".")[0]


def summarize(path: str, reasons: bool = False, by_op: bool = False) -> None:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as fh:
        rows = list(csv.reader(fh))
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
            ops[opcode(r)] += n
    print(f"== {os.path.basename(path)}: {total} warp instructions")
    print("   top opcodes:", ", ".join(f"{k} {v}" for k, v in ops.most_common(14)))
    hot = sorted((r for r in data if r[i_stall].isdigit()), key=lambda r: -int(r[i_stall]))[:12]
    for r in hot:
        print(f"   stall {r[i_stall]:>6} exec {r[i_exec]:>9}  {r[1].strip()[:90]}")
    cols = [i for i, h in enumerate(hdr) if h.startswith("stall_") and "Not Issued" not in h]
    if by_op:  # stall samples per opcode, and the leading reasons of the top opcodes
        samples, why = Counter(), {}
        for r in data:
            if not r[i_stall].isdigit():
                continue
            op = opcode(r)
            samples[op] += int(r[i_stall])
            c = why.setdefault(op, Counter())
            for i in cols:
                if r[i].isdigit():
                    c[hdr[i][6:]] += int(r[i])
        n = sum(samples.values()) or 1
        for op, v in samples.most_common(10):
            top = ", ".join(f"{k} {w}" for k, w in why[op].most_common(3))
            print(f"   by opcode: {op:10s} {100 * v / n:5.1f}% of samples ({top})")
    if reasons:
        tot = Counter()
        for r in data:
            for i in cols:
                if r[i].isdigit():
                    tot[hdr[i][6:]] += int(r[i])
        n = sum(tot.values()) or 1
        print("   stall reasons:", ", ".join(f"{k} {100 * v / n:.1f}%" for k, v in tot.most_common(10)))


if __name__ == "__main__":
    args = sys.argv[1:]
    want_reasons = "--reasons" in args
    want_ops = "--by-op" in args
    for p in args:
        if p not in ("--reasons", "--by-op"):
            summarize(p, want_reasons, want_ops)
