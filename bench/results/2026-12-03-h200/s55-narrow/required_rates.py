#!/usr/bin/env python3
"""The 16-bit rate each missed #4 bar point asks for, against the highest rate measured in the same sweep.

usage (repository root): python3 bench/results/2026-12-03-h200/s55-narrow/required_rates.py \
    bench/results/2026-12-02-h200/s42-sweep/bench.csv > bench/results/2026-12-03-h200/s55-narrow/required_rates.txt

A bar of b x cuBLAS fp16 at a point allows t = t_cublas / b; the rate it asks for is 2 M N K / t. The sweep's best
16-bit rates (any M, any shape: the large-M tiles under the board's power limit) bound what a 16-bit tensor-core kernel
sustains on this board; a point that asks for more cannot be met by a faster schedule of the same MMAs.
"""
import csv
import sys

BARS = {64: 2.5, 128: 1.6, 256: 1.2, 512: 1.1}


def main(path):
    rows = list(csv.DictReader(open(path)))
    cub = {(r["shape"], int(r["M"])): float(r["us_median"]) for r in rows if r["kernel"] == "cublas_fp16"}
    best = {}
    for r in rows:
        if r["kernel"] == "mixgemm" and r["a_type"] in ("f16", "bf16") and r["tflops"]:
            best[r["a_type"]] = max(best.get(r["a_type"], 0.0), float(r["tflops"]))
    best["cublas_fp16"] = max(float(r["tflops"]) for r in rows if r["kernel"] == "cublas_fp16" and r["tflops"])
    print("best 16-bit rates in the sweep (TFLOP/s): " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(best.items())))
    print(f"{'shape':20s} {'type':14s} {'M':>4s} {'bar':>4s} {'ours x':>7s} {'ours TF/s':>9s} {'asks TF/s':>9s} "
          f"{'asks / best same type':>21s}")
    for r in rows:
        if r["kernel"] != "mixgemm" or r["a_type"] not in ("f16", "bf16") or r["group_size"] != "128":
            continue
        m = int(r["M"])
        if m not in BARS or not r["x_cublas_fp16"]:
            continue
        x = float(r["x_cublas_fp16"])
        if x >= BARS[m]:
            continue
        n, k = int(r["N"]), int(r["K"])
        t_bar = cub[(r["shape"], m)] / BARS[m]
        asks = 2.0 * m * n * k / t_bar / 1e6
        print(f"{r['shape']:20s} {r['type_spec']:14s} {m:4d} {BARS[m]:4.1f} {x:7.2f} {float(r['tflops']):9.0f} "
              f"{asks:9.0f} {asks / best[r['a_type']]:21.2f}")


if __name__ == "__main__":
    main(sys.argv[1])
