#!/usr/bin/env python3
"""Medians of the sm90 diagnostic timeline (a -DMIXGEMM_SM90_TRACE build's MIXGEMM_SM90_TRACE_FILE).

Each line: "<key...> cta <c> t0 .. t15" (ns, %globaltimer). Per key (one traced launch), every mark is
taken relative to the launch's first CTA entry; prints the median and the max over CTAs, in microseconds.
Marks: 0 entry, 1 producer done, 2 mainloop entered, 3 first stage landed, 4 mainloop done, 5 ticket taken (split tiles), 6 reduced (last arriver), 7 output staged, 8 epilogue
done, 9 consumer exit; since session 34 the prologue (10 barriers initialized, 11 producer starts,
12 first stage's loads issued, 13 consumers start) and the last unit's end (14 mainloop done, 15 output
staged): 2-7 are a CTA's first unit, 8, 9, 14 and 15 its last.

With --mainloop: per key, the first unit's mainloop (mark 2 -> 4) over the CTAs, min / median / max, and
the launch's last exit (us): the comparison sessions 35 / 36 inlined in their device scripts
(s36-cluster/*/command.sh).

With --tiles: per split-K launch whose CTAs each run one unit (the parts of tile t are CTAs t*s .. t*s+s-1),
the spread of the parts' mainloop ends within a tile and the time from a tile's last mainloop end to its last
staged output (mark 7), median / max over the tiles, and the last tile's staged time (session 56's reading of
the 64-token tile's split-K tail, s56-reducescatter/). A .gz trace is read as is.
"""
import gzip
import statistics
import sys

NAMES = ["entry", "prod_done", "ml_in", "stage0", "ml_done", "ticket", "reduced", "staged", "epi_done", "exit",
         "bar_init", "prod_in", "issued0", "cons_in", "last_ml", "last_stg"]

def load(path):
    launches = {}
    for line in (gzip.open(path, "rt") if path.endswith(".gz") else open(path)):
        f = line.split()
        i = f.index("cta")
        key = " ".join(f[:i])
        # Unreached marks: 0 (traces before session 34) or 2^64 - 1 (the buffer's fill since).
        ts = [int(x) if int(x) != (1 << 64) - 1 else 0 for x in f[i + 2:i + 18]]
        launches.setdefault(key, []).append(ts)
    return launches


def mainloops(path):
    for key, rows in load(path).items():
        t0 = min(r[0] for r in rows if r[0])
        ml = [(r[4] - r[2]) / 1000.0 for r in rows if r[4] and r[2]]
        ex = max((r[9] - t0) / 1000.0 for r in rows if r[9])
        if ml:
            print(f"{key[:90]:90s} {min(ml):7.2f} {statistics.median(ml):7.2f} {max(ml):7.2f}   exit {ex:7.2f}")


def tiles(path):
    for key, rows in load(path).items():
        f = key.split()
        splits = int(next(x for x in f if x.startswith("splits"))[6:])
        stream = int(next(x for x in f if x.startswith("stream"))[6:])
        if splits < 2 or stream or len(rows) % splits:
            continue
        t0 = min(r[0] for r in rows if r[0])
        spread, tail, end = [], [], []
        for t in range(len(rows) // splits):
            parts = rows[t * splits:(t + 1) * splits]
            ml = [r[4] for r in parts if r[4]]
            st = [r[7] for r in parts if r[7]]
            if len(ml) != splits or not st:
                continue
            spread.append((max(ml) - min(ml)) / 1000.0)
            tail.append((max(st) - max(ml)) / 1000.0)
            end.append((max(st) - t0) / 1000.0)
        if tail:
            print(f"{key[:90]:90s} ml spread {statistics.median(spread):5.2f} / {max(spread):5.2f}"
                  f"  last ml -> staged {statistics.median(tail):5.2f} / {max(tail):5.2f}  last staged {max(end):7.2f}")


def main(path):
    launches = load(path)
    print(f"{'launch':70s} {'':4s} " + " ".join(f"{n:>9s}" for n in NAMES))
    for key, rows in launches.items():
        t0 = min(r[0] for r in rows if r[0])
        for stat, fn in (("med", statistics.median), ("max", max)):
            cols = []
            for j in range(len(NAMES)):
                v = [(r[j] - t0) / 1000.0 for r in rows if r[j]]
                cols.append(f"{fn(v):9.2f}" if v else f"{'-':>9s}")
            print(f"{key:70s} {stat:4s} " + " ".join(cols))

if __name__ == "__main__":
    if sys.argv[1] == "--mainloop":
        mainloops(sys.argv[2])
    elif sys.argv[1] == "--tiles":
        tiles(sys.argv[2])
    else:
        main(sys.argv[1])
