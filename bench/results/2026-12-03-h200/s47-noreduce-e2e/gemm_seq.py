#!/usr/bin/env python3
"""Session 40: the W4A16 GEMMs of one Llama-3-8B decode step (32 x qkv / o / gate_up / down, then lm_head; M = 1,
f16 x u4b8 g128, random weights) run alone, back to back: (1) per-step time of one CUDA-graph replay, (2) the
kernels' own durations per step (torch.profiler over eager steps), by kernel name. Compared with the same GEMMs'
durations inside the compiled decode step (examples/llama_decode.py --profile-out), it says whether the step's
other kernels (norms, RoPE, attention: other code in the instruction caches, other data in L2) make our GEMMs
slower than they are back to back."""
import collections
import csv
import statistics
import sys

import torch
from torch.profiler import ProfilerActivity, profile

import mixgemm.torch as mt

dev = torch.device("cuda")
torch.manual_seed(0)
shapes = [("qkv", 6144, 4096), ("o", 4096, 4096), ("gate_up", 28672, 4096), ("down", 4096, 14336)]
layers = []
with torch.inference_mode():
    for i in range(32):
        for name, N, K in shapes:
            lin = torch.nn.Linear(K, N, bias=False, dtype=torch.float16, device=dev)
            layers.append((name, mt.QuantLinear.from_linear(lin)))
            del lin
    lin = torch.nn.Linear(4096, 128256, bias=False, dtype=torch.float16, device=dev)
    layers.append(("lm_head", mt.QuantLinear.from_linear(lin)))
    del lin
    xs = {K: torch.randn(1, K, dtype=torch.float16, device=dev) for K in (4096, 14336)}

    def step():
        for _, m in layers:
            m(xs[m.in_features])

    for _ in range(3):
        step()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        step()
    torch.cuda.current_stream().wait_stream(s)
    with torch.cuda.graph(g):
        step()
    for _ in range(5):
        g.replay()
    ts = []
    for _ in range(30):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) * 1e3)
    print(f"[seq] graph replay of the step's 129 GEMMs: median {statistics.median(ts):.1f} us (min {min(ts):.1f})")
    steps = 3
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    per = collections.defaultdict(lambda: [0, 0.0])
    for e in prof.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        us = e.device_time if hasattr(e, "device_time") else e.cuda_time
        per[e.name][0] += 1
        per[e.name][1] += us
    tot = sum(v[1] for v in per.values()) / steps
    print(f"[seq] kernel durations per eager step: {tot:.1f} us over {sum(v[0] for v in per.values()) / steps:.0f} kernels")
    with open(sys.argv[1] if len(sys.argv) > 1 else "gemm_seq.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["what", "name", "kernels_per_step", "us_per_step"])
        w.writerow(["graph_step_us_median", "", "", f"{statistics.median(ts):.1f}"])
        for name, (n, us) in sorted(per.items(), key=lambda kv: -kv[1][1]):
            w.writerow(["kernel", name[:160], f"{n / steps:.1f}", f"{us / steps:.1f}"])
            print(f"[seq]   {us / steps:8.1f} us {n / steps:5.0f} x {name[:110]}")
