"""First-order numerics of three W4A16 (u4b8, g128) dequantization forms, on the CPU
(docs/design-smallm.md, "Not done / open"). Usage: python3 scripts/numerics_dequant_forms.py

A: today's semantics: w = RN_f16((q-8) s), acc += a w (f32)
B: group scale on the f32 group sum: acc += s * sum_g(a (q-8))
C: magic operands: acc_g = sum_g a (1024+q) in f32, then acc += s * (acc_g - 1032 sum_g a)
The tensor cores' accumulation is modelled as: 16 exact products per k-step summed exactly,
rounded to f32 once, added to the f32 accumulator (RN); the GPU's HMMA accumulation is not
exactly that, so this is a first estimate, not a measurement. Random f16 activations N(0, 1),
uniform q, scales U(0.5, 1.5) / 16 in f16. Error = |result - exact real value| in units of the
f16 ulp of the exact result, before the output's own rounding (0.5 ulp).
"""
import numpy as np

rng = np.random.default_rng(1)


def f32(x):
    return np.float32(x)


def run(K, N=256, trials=4, g=128):
    errs = {"A": [], "B": [], "C": []}
    for _ in range(trials):
        a = rng.standard_normal(K).astype(np.float16).astype(np.float64)
        q = rng.integers(0, 16, size=(N, K))
        s = (rng.uniform(0.5, 1.5, size=(N, K // g)) / 16).astype(np.float16).astype(np.float64)
        sk = np.repeat(s, g, axis=1)
        exact = ((q - 8) * sk * a).sum(axis=1)
        # A
        w = ((q - 8) * sk).astype(np.float16).astype(np.float64)
        accA = np.zeros(N, np.float32)
        for k0 in range(0, K, 16):
            accA = (accA + (w[:, k0:k0 + 16] * a[k0:k0 + 16]).sum(axis=1).astype(np.float32)).astype(np.float32)
        # B and C per group
        accB = np.zeros(N, np.float32)
        accC = np.zeros(N, np.float32)
        for gi in range(K // g):
            sl = slice(gi * g, (gi + 1) * g)
            gb = np.zeros(N, np.float32)
            gc = np.zeros(N, np.float32)
            asum = np.float32(0)
            for k0 in range(gi * g, (gi + 1) * g, 16):
                ks = slice(k0, k0 + 16)
                gb = (gb + ((q[:, ks] - 8) * a[ks]).sum(axis=1).astype(np.float32)).astype(np.float32)
                gc = (gc + ((q[:, ks] + 1024) * a[ks]).sum(axis=1).astype(np.float32)).astype(np.float32)
                asum = np.float32(asum + np.float32(a[ks].sum()))
            sg = s[:, gi].astype(np.float32)
            accB = (accB + sg * gb).astype(np.float32)
            corr = (gc - np.float32(1032) * asum).astype(np.float32)
            accC = (accC + sg * corr).astype(np.float32)
        ulp = np.spacing(np.abs(exact).astype(np.float16)).astype(np.float64)
        for name, acc in (("A", accA), ("B", accB), ("C", accC)):
            errs[name].append(np.abs(acc.astype(np.float64) - exact) / ulp)
    return {k: (float(np.median(np.concatenate(v))), float(np.percentile(np.concatenate(v), 99)),
                float(np.max(np.concatenate(v)))) for k, v in errs.items()}


for K in (4096, 8192, 28672):
    r = run(K)
    print(f"K={K:6d}  " + "  ".join(f"{k}: median {v[0]:.3f} p99 {v[1]:.3f} max {v[2]:.3f} f16 ulp" for k, v in r.items()))
