#!/usr/bin/env python3
"""Medians of the sm90 diagnostic timeline (a -DMIXGEMM_SM90_TRACE build's MIXGEMM_SM90_TRACE_FILE).

Each line: "<key...> cta <c> t0 .. t15" (ns, %globaltimer). Per key (one traced launch), every mark is
taken relative to the launch's first CTA entry; prints the median over CTAs (and the max of the last
marks), in microseconds. Marks: 0 entry, 1 producer done, 2 mainloop entered, 3 first stage landed,
4 mainloop done, 5 ticket taken (split tiles), 6 reduced (last arriver), 7 output staged, 8 epilogue
done, 9 consumer exit.
"""
import statistics
import sys

NAMES = ["entry", "prod_done", "ml_in", "stage0", "ml_done", "ticket", "reduced", "staged", "epi_done", "exit"]

def main(path):
    launches = {}
    for line in open(path):
        f = line.split()
        i = f.index("cta")
        key = " ".join(f[:i])
        ts = [int(x) for x in f[i + 2:i + 18]]
        launches.setdefault(key, []).append(ts)
    print(f"{'launch':70s} " + " ".join(f"{n:>9s}" for n in NAMES) + f" {'max_exit':>9s}")
    for key, rows in launches.items():
        t0 = min(r[0] for r in rows if r[0])
        cols = []
        for j in range(len(NAMES)):
            v = [(r[j] - t0) / 1000.0 for r in rows if r[j]]
            cols.append(f"{statistics.median(v):9.2f}" if v else f"{'-':>9s}")
        mx = max((r[9] - t0) / 1000.0 for r in rows if r[9])
        print(f"{key:70s} " + " ".join(cols) + f" {mx:9.2f}")

if __name__ == "__main__":
    main(sys.argv[1])
