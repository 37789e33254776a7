#!/usr/bin/env python3
"""Summarize Nsight Compute SASS source exports (``ncu -i X --page source --csv
--print-source sass``): total warp instructions, the opcodes that dominate them, and
the instructions with the most stall samples. Used by scripts/profile_*.sh.

    python3 scripts/ncu_summary.py [--reasons] [--by-op] [--regions] [--by-exec] OUT/source_*.csv[.gz]

--reasons also sums the per-reason stall samples (stall_barrier, stall_wait, ...) over
every instruction: where the warps' time goes. --by-op sums the stall samples per opcode
(LDGSTS, HMMA, ...) with each one's three leading reasons. --regions splits the samples
between the MMA loops (each backward branch whose body holds an MMA instruction; the
innermost such bodies, as scripts/sass_loops.py finds them in a cuobjdump listing) and the
rest of the kernel, with each part's leading reasons: is the time in the row loop or around it.
--by-exec groups the instructions by how many times each was executed (the instructions of one loop body, or of
code run once per warp, share a count): per group its static size, executed instructions, stall samples and
instruction-fetch (no_inst) samples, and its leading opcodes per execution; the largest groups first. How big the
hot code is and where the fetch stalls sit (session 62, bench/results/2026-12-04-h200/s62-ncu-marlin/).
(Loops longer than 1200 instructions are not counted as MMA loops: the chunk or persistent loop
around them; a kernel whose MMAs are not inside such a short loop shows "0 MMA loop(s)".)
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


MMA_OPS = ("HMMA", "IMMA", "HGMMA", "IGMMA", "QGMMA")


def mma_loop_ranges(data, max_len=1200):
    """[(lo, hi)] address ranges of the innermost backward-branch loops of at most max_len
    instructions whose body holds an MMA instruction. data: source-page rows (address in
    column 0, SASS text in column 1)."""
    rows = []
    for r in data:
        try:
            rows.append((int(r[0], 16), r[1]))
        except ValueError:
            continue
    loops = []
    for addr, text in rows:
        t = text.split()
        if "BRA" not in [x.split(".")[0] for x in t]:
            continue
        try:
            target = int(t[-1], 16)
        except ValueError:
            continue
        if target < addr:
            body = [x for a, x in rows if target <= a <= addr]
            # bodies longer than max_len are the chunk or persistent loops around the MMA loop
            if len(body) <= max_len and any(opcode([None, x]) in MMA_OPS for x in body):
                loops.append((target, addr))
    # innermost: drop a loop that contains another MMA loop
    return [l for l in loops if not any(o != l and l[0] <= o[0] and o[1] <= l[1] for o in loops)]


def by_exec_groups(hdr, data, groups=6):
    """Lines describing the instruction groups that share an execution count, largest executed total first."""
    i_exec = hdr.index("Instructions Executed")
    i_stall = hdr.index("Warp Stall Sampling (All Samples)")
    i_fetch = hdr.index("stall_no_inst") if "stall_no_inst" in hdr else None
    g = {}
    for r in data:
        if not r[i_exec].isdigit() or int(r[i_exec]) == 0:
            continue
        e = int(r[i_exec])
        c = g.setdefault(e, {"static": 0, "samples": 0, "fetch": 0, "ops": Counter()})
        c["static"] += 1
        c["samples"] += int(r[i_stall]) if r[i_stall].isdigit() else 0
        if i_fetch is not None and r[i_fetch].isdigit():
            c["fetch"] += int(r[i_fetch])
        c["ops"][opcode(r)] += 1
    total = sum(c["samples"] for c in g.values()) or 1
    out = []
    for e in sorted(g, key=lambda e: -e * g[e]["static"])[:groups]:
        c = g[e]
        ops = ", ".join(f"{k} {v}" for k, v in c["ops"].most_common(8))
        out.append(f"   exec {e:>8}: {c['static']:5d} instructions, {e * c['static']:>9} executed, "
                   f"{100 * c['samples'] / total:5.1f}% of samples ({c['fetch']} no_inst); {ops}")
    return out


def summarize(path: str, reasons: bool = False, by_op: bool = False, regions: bool = False,
              by_exec: bool = False) -> None:
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
    if regions:
        ranges = mma_loop_ranges(data)
        parts = {"MMA loops": Counter(), "elsewhere": Counter()}
        for r in data:
            try:
                addr = int(r[0], 16)
            except ValueError:
                continue
            part = "MMA loops" if any(lo <= addr <= hi for lo, hi in ranges) else "elsewhere"
            if r[i_stall].isdigit():
                parts[part]["all"] += int(r[i_stall])
            for i in cols:
                if r[i].isdigit():
                    parts[part][hdr[i][6:]] += int(r[i])
        total = sum(p["all"] for p in parts.values()) or 1
        print(f"   {len(ranges)} MMA loop(s): " + ", ".join(f"{lo:#x}-{hi:#x}" for lo, hi in ranges))
        for name, c in parts.items():
            top = ", ".join(f"{k} {v}" for k, v in c.most_common(6) if k != "all")
            print(f"   region {name:9s}: {100 * c['all'] / total:5.1f}% of samples ({top})")
    if by_exec:
        print("\n".join(by_exec_groups(hdr, data)))
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
    flags = ("--reasons", "--by-op", "--regions", "--by-exec")
    on = [f in args for f in flags]
    for p in args:
        if p not in flags:
            summarize(p, *on)
