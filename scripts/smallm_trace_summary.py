#!/usr/bin/env python3
"""Medians per phase of a smallm trace file (src/kernels/smallm/smallm_trace.cuh).

Usage: smallm_trace_summary.py TRACE_FILE[.gz] [...]

Each line of the file is "tag cta t0 .. t15" (ns of %globaltimer, 0 = milestone not reached),
tag = N_K_M_schedule. Printed per tag, in microseconds, medians over the CTAs of the launch:
row range, zero fill, stage requests, ring requests (the prologue of thread 0), first stage
(chunk loop entry to the first chunk barrier), compute (first barrier to the final segment),
for the CTAs that reduce a stripe at the end: final segment to reduction start and the
reduction to exit, for the others: final segment to exit; and the launch's span (first entry
to last exit). Trace builds since session 13 also print the final reducers' protocol step by
step (release fence, ticket issued, its result and the acquire, first round of partials landed,
sums, epilogue stores, exit). Lines with the cycle accounts of warps 0 and 1 (trace builds
since session 7) add, per warp, the median over CTAs of each account of the chunk loop in us at --mhz (default
1980, the H200's clock under this kernel: bench/results/2026-11-30-h200/s7-e2e8/). Lines that end with the
CTA's SM id (trace builds since session 41) add the SMs' end times: how far the slowest SM ends after the
mean one.
"""
import collections
import gzip
import statistics
import sys

ENTRY, LOOP, FIRST, FINAL, RELEASED, REDUCE, EXIT, ROWS, ZERO, STAGES, RING = 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11
FENCED, TICKET, LOADED, SUMMED, STORED = 3, 12, 13, 14, 15  # the final segment's protocol (session 13)


def med(rows, i, j):
    v = [(r[j] - r[i]) / 1e3 for r in rows if r[i] and r[j]]
    return statistics.median(v) if v else float("nan")


ACCOUNTS = ("barrier", "stage", "produce", "rowwait", "rows", "segment")


def main(args):
    mhz = 1980.0
    if args and args[0].startswith("--mhz="):
        mhz = float(args[0].split("=", 1)[1])
        args = args[1:]
    paths = args
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        by_tag = collections.defaultdict(list)
        with opener(path, "rt") as f:
            for line in f:
                parts = line.split()
                by_tag[parts[0]].append([int(x) for x in parts[2:]])
        print(f"{path}: us, medians over CTAs")
        print("tag ctas | rows zero stages ring | first-stage | compute | reducers: n wait reduce | others: end | span")
        for tag, rows in by_tag.items():
            red = [r for r in rows if r[REDUCE]]
            oth = [r for r in rows if not r[REDUCE]]
            span = (max(r[EXIT] for r in rows) - min(r[ENTRY] for r in rows)) / 1e3
            print(f"{tag} {len(rows)} | {med(rows, ENTRY, ROWS):.2f} {med(rows, ROWS, ZERO):.2f} "
                  f"{med(rows, ZERO, STAGES):.2f} {med(rows, STAGES, RING):.2f} | {med(rows, LOOP, FIRST):.2f} | "
                  f"{med(rows, FIRST, FINAL):.2f} | {len(red)} {med(red, FINAL, REDUCE):.2f} "
                  f"{med(red, REDUCE, EXIT):.2f} | {med(oth, FINAL, EXIT):.2f} | {span:.2f}")
        tails = {tag: [r for r in rows if r[REDUCE] and r[LOADED]] for tag, rows in by_tag.items()}
        if any(tails.values()):
            print("final reducers (TM <= 16 workspace split), us: final>fenced fenced>ticket ticket>released "
                  "released>reduce reduce>loaded loaded>summed summed>stored stored>exit "
                  "(the atomic's latency shows in ticket>released)")
            for tag, red in tails.items():
                if red:
                    steps = [(FINAL, FENCED), (FENCED, TICKET), (TICKET, RELEASED), (RELEASED, REDUCE), (REDUCE, LOADED),
                             (LOADED, SUMMED), (SUMMED, STORED), (STORED, EXIT)]
                    print(f"{tag} {len(red)} | " + " ".join(f"{med(red, i, j):.2f}" for i, j in steps))
        per_sm = {tag: rows for tag, rows in by_tag.items() if all(len(r) >= 29 for r in rows)}
        if per_sm:
            print("per SM (trace builds since session 41 record %smid), us after the launch's first entry: "
                  "SM end = its CTAs' last final segment; min / mean / max over SMs; max - mean bounds what a "
                  "dynamic split of the rows between SMs could save; within = mean over SMs of (last - first "
                  "CTA final segment)")
            for tag, rows in per_sm.items():
                e0 = min(r[ENTRY] for r in rows)
                sms = collections.defaultdict(list)
                for r in rows:
                    if r[FINAL]:
                        sms[r[28]].append((r[FINAL] - e0) / 1e3)
                if not sms:
                    continue
                ends = [max(v) for v in sms.values()]
                within = statistics.mean(max(v) - min(v) for v in sms.values())
                mean = statistics.mean(ends)
                print(f"{tag} {len(sms)} SMs | end {min(ends):.2f} {mean:.2f} {max(ends):.2f} | max-mean "
                      f"{max(ends) - mean:.2f} | within {within:.2f}")
        cyc = {tag: [r[16:] for r in rows if len(r) >= 28] for tag, rows in by_tag.items()}
        if any(cyc.values()):
            print("chunk loop, us per warp (median over CTAs): " + " ".join(ACCOUNTS) + " | total")
            for tag, rows in cyc.items():
                for w in range(2):
                    v = [statistics.median(r[6 * w + a] for r in rows) / mhz for a in range(6)]
                    print(f"{tag} warp{w} " + " ".join(f"{x:.2f}" for x in v) + f" | {sum(v):.2f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
