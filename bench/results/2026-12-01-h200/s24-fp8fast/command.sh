#!/usr/bin/env bash
# Session 24 call 2: W4A8 against issue #5's bars with both cuBLASLt fp8 baselines in the same run:
# cublaslt_fp8 (cuBLASLt's default, FAST_ACCUM = 0: promoted accumulation) and cublaslt_fp8_fast
# (FAST_ACCUM = 1: the fp8 tensor-core accumulation without promotion, as our e4m3 wgmma path runs),
# plus cuBLAS fp16 for the M = 256 bar. e4m3 g128 / per-channel and s8 g128, seed + Llama-2-70B.
set -uo pipefail
cd "$(dirname "$0")/.."
BARS_SM90_TYPES=s8.u4,e4m3.u4 BARS_TYPES=e4m3.u4b8.g128,e4m3.u4b8.gch,s8.u4b8.g128 \
BARS_BASELINES=cublas_fp16,cublaslt_fp8,cublaslt_fp8_fast BARS_MS=256,1024,2048,4096,8192 BARS_RUNS=1 \
BARS_TIME_LIMIT=350 bash scripts/device_bars.sh .s24/commit.txt
cp .s24/call2.sh /tmp/bars/command.sh; cp .s24/commit.txt /tmp/bars/; tar czf "$OUT/bars.tar.gz" -C /tmp bars
python3 - /tmp/bars/bench-1.csv <<'PY'
import csv, sys, math
rows = list(csv.DictReader(open(sys.argv[1])))
base = {}
for r in rows:
    if r["kernel"] in ("cublaslt_fp8", "cublaslt_fp8_fast", "cublas_fp16") and r["us_median"]:
        base[(r["shape"], r["M"], r["kernel"])] = float(r["us_median"])
for r in rows:
    if r["kernel"] != "mixgemm" or not r["us_median"]: continue
    t = float(r["us_median"]); k = (r["shape"], r["M"])
    f8, f8f, f16 = (base.get(k + (b,)) for b in ("cublaslt_fp8", "cublaslt_fp8_fast", "cublas_fp16"))
    fmt = lambda b: f"{b / t:5.2f}" if b else "  -  "
    print(f"{r['shape']:18s} {r['type_spec']:16s} M={r['M']:>5s} {t:9.1f} us  x_fp8 {fmt(f8)}  x_fp8_fast {fmt(f8f)}  x_fp16 {fmt(f16)}  {r['verify'][:4]}")
PY
