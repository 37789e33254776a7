#!/usr/bin/env python3
"""The MMA loops of each kernel in a cuobjdump -sass listing: where they are, how long, and
their opcode mix.

Session 15 found the grouped W4A8 tiles' limits by counting SASS instructions per 64-k block
(docs/design-sm90.md, "Session 15"); this does that count without device time:

    scripts/local_sass.sh build-x/generated/sm90_inst_s8_u4_128x256.cu > /tmp/k.sass
    scripts/sass_loops.py /tmp/k.sass

A loop is a backward branch whose body holds at least one MMA instruction (HMMA, IMMA, HGMMA,
IGMMA, QGMMA), or with --op one of the opcodes named (`--op UTMALDG`: the sm90 producer's block
loops, where "mma" counts those); loops longer than --max-len instructions (the persistent loop around a whole
unit, with its epilogue) are left out. One line per loop: kernel (name tail), body start and
end address, instruction count, MMA count, local-memory accesses (LDL/STL: a spill inside the
loop), the body's start within its 128- and 256-byte lines of code, and the --top most frequent
opcodes.

The start offsets are there for A/Bs of the decode kernels: session 59 measured the same TM 8
row-loop SASS up to 15% slower at M = 4 / 8 at another address (dead code elsewhere in the
kernel had moved it; docs/design-smallm.md, "Session 59"), so a change that moves a row loop
can win or lose by placement alone: compare the offsets of both builds before reading a
difference as the change's (scripts/smallm_loop_offsets.sh does it for the decode kernels).
"""
import argparse
import collections
import re
import sys

INSTR = re.compile(r"\s*/\*([0-9a-f]+)\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)(.*?);")
MMA = ("HMMA", "IMMA", "HGMMA", "IGMMA", "QGMMA")


def kernels(text):
    """(name, [(address, opcode, operands)]) per 'Function :' section."""
    for part in re.split(r"\n\s*Function : ", text)[1:]:
        name = part.split("\n", 1)[0].strip()
        ops = []
        for line in part.split("\n"):
            m = INSTR.match(line)
            if m:
                ops.append((int(m.group(1), 16), m.group(3), m.group(4)))
        yield name, ops


def loops(ops, max_len, want=MMA):
    """Backward branches whose body has an instruction of `want` (MMA by default), innermost ones
    first by length."""
    index = {addr: i for i, (addr, _, _) in enumerate(ops)}
    found = []
    for i, (addr, op, args) in enumerate(ops):
        if not op.startswith("BRA"):
            continue
        t = re.search(r"0x([0-9a-f]+)", args)
        if not t:
            continue
        target = int(t.group(1), 16)
        if target >= addr or target not in index:
            continue
        body = ops[index[target]:i + 1]
        n_mma = sum(o.split(".")[0] in want for _, o, _ in body)
        if n_mma and len(body) <= max_len:
            found.append((target, addr, body, n_mma))
    return sorted(found, key=lambda f: len(f[2]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sass", help="cuobjdump -sass output ('-' for stdin)")
    ap.add_argument("--max-len", type=int, default=1000, help="longest loop body listed (instructions)")
    ap.add_argument("--top", type=int, default=10, help="opcodes shown per loop")
    ap.add_argument("--op", action="append",
                    help="list the loops holding this opcode instead of an MMA (repeatable; e.g. UTMALDG for "
                         "the sm90 producer's block loops)")
    a = ap.parse_args()
    text = sys.stdin.read() if a.sass == "-" else open(a.sass).read()
    for name, ops in kernels(text):
        for start, end, body, n_mma in loops(ops, a.max_len, tuple(a.op) if a.op else MMA):
            mix = collections.Counter(o.split(".")[0] for _, o, _ in body).most_common(a.top)
            local = sum(o.split(".")[0] in ("LDL", "STL") for _, o, _ in body)
            print(f"{name[-60:]} {start:#x}-{end:#x} len {len(body)} mma {n_mma} local {local} "
                  f"line128 +{start % 128} line256 +{start % 256} " + " ".join(f"{o}:{n}" for o, n in mix))


if __name__ == "__main__":
    main()
