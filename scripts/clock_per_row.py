#!/usr/bin/env python3
"""The SM clock and board power under each row of a mixgemm-bench run, and what they say about the rate.

Inputs (all written on the GPU machine during one run):
  --smi       nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active
              --format=csv,noheader -lms 20   (local-time stamps of the same machine)
  --progress  the bench's stderr progress lines, each prefixed with `date +%s.%N` as it was read
              ("<epoch> [k/n] <shape> tp1 <kernel or type spec> M=<m>"); a row runs from its line to the
              next one (the last row ends at a final "<epoch> end" line)
  --bench     the bench's CSV of the same run (shape, M, kernel, type_spec, us_median, tflops, ...)

A row's timed runs come last in it (after the warm-up, cuBLASLt's algorithm trials and the --settle-ms
back-to-back phase), so its clock is the median of the samples in the last --window seconds before its end.

Per row it prints the median SM clock and power, the rate (TFLOP/s or TOP/s) and the rate per clock as a share
of the dense tensor-core peak per cycle of the operand width (132 SMs x 4096 FLOP/clk for 16-bit, 8192 for
8-bit, the data sheet's 989 / 1979 TFLOP/s at 1830 MHz). With --bars it adds, for the #4 / #5 bar rows, the
rate the bar asks for (cuBLAS fp16's rate at that point times the bar) as a share of that peak at the clock the
board sustained under our row.
"""
import argparse
import bisect
import csv
import gzip
import statistics
import sys
import time


def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)

PEAK_PER_CLK = {16: 132 * 4096, 8: 132 * 8192}  # dense FLOP (or OP) per SM clock, whole GPU
BARS = {  # (type spec, M) -> bar in x cuBLAS fp16 (issues #4, #5)
    ("f16.u4b8.g128", 128): 1.6, ("bf16.u4b8.g128", 128): 1.6,
    ("f16.u4b8.g128", 256): 1.2, ("bf16.u4b8.g128", 256): 1.2,
    ("f16.u4b8.g128", 512): 1.1, ("bf16.u4b8.g128", 512): 1.1,
    ("s8.u4b8.g128", 256): 2.0, ("e4m3.u4b8.g128", 256): 2.0,
}


def smi_samples(path):
    out = []
    with open_text(path) as f:
        for line in f:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) < 3:
                continue
            try:
                stamp, frac = parts[0].split(".") if "." in parts[0] else (parts[0], "0")
                t = time.mktime(time.strptime(stamp, "%Y/%m/%d %H:%M:%S")) + float("0." + frac)
                mhz = float(parts[1].split()[0])
                watts = float(parts[2].split()[0])
            except (ValueError, IndexError):
                continue
            out.append((t, mhz, watts))
    out.sort()
    return out


def progress_rows(paths, drop_last=False):
    """[(start, end, (shape, spec, M))] from the timestamped progress lines (drop_last: not each file's last
    row, whose end the file does not record)."""
    events = []
    last = set()
    for p in paths:
        file_rows = []
        with open_text(p) as f:
            for line in f:
                head, _, rest = line.strip().partition(" ")
                try:
                    t = float(head)
                except ValueError:
                    continue
                events.append((t, rest))
                if rest.startswith("["):
                    file_rows.append(t)
        if drop_last and file_rows:
            last.add(file_rows[-1])
    events.sort()
    rows = []
    for i, (t, rest) in enumerate(events):
        words = rest.split()
        if len(words) != 5 or not words[0].startswith("[") or not words[4].startswith("M="):
            continue  # "end", notes, verification lines
        if t in last:
            continue
        end = events[i + 1][0] if i + 1 < len(events) else t
        rows.append((t, end, (words[1], words[3], int(words[4][2:]))))
    return rows


def bench_rows(paths):
    rows = {}
    for p in paths:
        with open_text(p) as f:
            for r in csv.DictReader(f):
                if r.get("status") != "ok":
                    continue
                rows[(r["shape"], r["type_spec"], int(r["M"]))] = r
    return rows


def bits_of(spec, r):
    a = r.get("a_type", "")
    return 8 if a in ("s8", "e4m3") or spec in ("cublaslt_fp8", "cublaslt_fp8_fast", "cublaslt_int8") else 16


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smi", required=True)
    ap.add_argument("--progress", nargs="+", required=True)
    ap.add_argument("--bench", nargs="+", required=True)
    ap.add_argument("--window", type=float, default=0.3, help="seconds before a row's end whose samples count")
    ap.add_argument("--out", help="CSV of the joined rows")
    ap.add_argument("--drop-last", action="store_true", help="skip each progress file's last row (no end mark)")
    ap.add_argument("--bar-baseline", help="bench CSV whose cuBLAS fp16 rates the bars are taken against "
                    "(default: this run's)")
    args = ap.parse_args()

    smi = smi_samples(args.smi)
    times = [s[0] for s in smi]
    prog = progress_rows(args.progress, args.drop_last)
    bench = bench_rows(args.bench)
    joined = []
    for start, end, key in prog:
        r = bench.get(key)
        if r is None:
            continue
        lo = bisect.bisect_left(times, max(start, end - args.window))
        hi = bisect.bisect_right(times, end)
        window = smi[lo:hi]
        if not window:
            continue
        mhz = statistics.median(s[1] for s in window)
        watts = statistics.median(s[2] for s in window)
        rate = float(r["tflops"])
        bits = bits_of(key[1], r)
        per_clk = rate * 1e12 / (mhz * 1e6)
        joined.append(dict(shape=key[0], spec=key[1], M=key[2], us=float(r["us_median"]), rate=rate, mhz=mhz,
                           watts=watts, samples=len(window), bits=bits,
                           peak_share=per_clk / PEAK_PER_CLK[bits]))
    if not joined:
        print("no row could be joined", file=sys.stderr)
        return 1
    by_key = {(j["shape"], j["spec"], j["M"]): {"rate": j["rate"]} for j in joined}
    if args.bar_baseline:
        by_key = {k: {"rate": float(r["tflops"])} for k, r in bench_rows([args.bar_baseline]).items() if r["tflops"]}
    print(f"{'shape':20s} {'kernel':16s} {'M':>5s} {'us':>9s} {'rate':>7s} {'MHz':>6s} {'W':>5s} {'n':>3s} "
          f"{'peak/clk':>8s} {'bar needs':>9s}")
    for j in joined:
        need = ""
        bar = BARS.get((j["spec"], j["M"]))
        base = by_key.get((j["shape"], "cublas_fp16", j["M"]))
        if bar and base:
            need_rate = base["rate"] * bar
            j["bar_need_rate"] = need_rate
            j["bar_need_peak_share"] = need_rate * 1e12 / (j["mhz"] * 1e6) / PEAK_PER_CLK[j["bits"]]
            need = f"{100 * j['bar_need_peak_share']:8.1f}%"
        print(f"{j['shape']:20s} {j['spec']:16s} {j['M']:5d} {j['us']:9.2f} {j['rate']:7.1f} {j['mhz']:6.0f} "
              f"{j['watts']:5.0f} {j['samples']:3d} {100 * j['peak_share']:7.1f}% {need:>9s}")
    if args.out:
        keys = ["shape", "spec", "M", "us", "rate", "mhz", "watts", "samples", "bits", "peak_share",
                "bar_need_rate", "bar_need_peak_share"]
        with open(args.out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
            w.writeheader()
            for j in joined:
                w.writerow(j)
    return 0


if __name__ == "__main__":
    sys.exit(main())
