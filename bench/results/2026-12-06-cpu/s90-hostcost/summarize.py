#!/usr/bin/env python3
"""Session 90: gemm()'s host cost with and without the stream-K L2 guard (run from this folder): per (shape, M) the
lower of the two runs of each side, the median over the points and the largest increases."""
import statistics


def load(p):
    d = {}
    for line in open(p):
        f = line.strip().split(',')
        if len(f) == 7 and f[5].isdigit():
            d[(f[0], int(f[5]))] = float(f[6])
    return d


a = [load(f'after{r}.txt') for r in (1, 2)]
b = [load(f'before{r}.txt') for r in (1, 2)]
rows = []
for k in sorted(set(a[0]) & set(b[0])):
    after, before = min(a[0][k], a[1][k]), min(b[0][k], b[1][k])
    rows.append((after - before, k, before, after))
print(f'{len(rows)} points: median {statistics.median(r[2] for r in rows):.2f} us without the guard, '
      f'{statistics.median(r[3] for r in rows):.2f} us with it')
for d, k, before, after in sorted(rows, reverse=True)[:8]:
    print(f'  {d:+.2f} us  {k[0]:22s} M={k[1]:5d}  {before:.2f} -> {after:.2f}')
