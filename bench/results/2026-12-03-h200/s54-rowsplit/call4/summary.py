#!/usr/bin/env python3
"""Session 54 call 4 (run from this folder): session 33's row split constants (s33rule) over main's (base), base v1 v1
base in one run; per point the mean of the two runs each. Points where the two plans differ, per type, and the
points with the same plan (the run's control)."""
import csv, io, math, tarfile, collections
t = tarfile.open('multi.tar.gz')
def load(n):
    d = {}
    for x in csv.DictReader(io.TextIOWrapper(t.extractfile(f'multi/{n}.csv'))):
        if x['status'] == 'ok':
            d[(x['type_spec'].split('.')[0], x['shape'], int(x['M']))] = (float(x['us_median']), x['schedule'])
    return d
b1, b2, c1, c2 = (load(n) for n in ('base-1', 'base-2', 's33rule-1', 's33rule-2'))
same, diff, rows = [], collections.defaultdict(list), []
for k in b1:
    r = (c1[k][0] + c2[k][0]) / (b1[k][0] + b2[k][0])
    (same.append(math.log(r)) if b1[k][1] == c1[k][1] else diff[k[0]].append(math.log(r)))
    if b1[k][1] != c1[k][1]: rows.append((r, k, b1[k][1], c1[k][1]))
g = lambda a: math.exp(sum(a) / len(a))
print(f'same plan: {len(same)} points, s33rule / base {g(same):.4f}')
for ty, v in sorted(diff.items()): print(f'{ty}: plans differ at {len(v)} points, s33rule / base {g(v):.4f} ({math.exp(min(v)):.3f}..{math.exp(max(v)):.3f})')
allv = [x for v in diff.values() for x in v]
print(f'all differing: {len(allv)} points, s33rule / base {g(allv):.4f}')
for r, k, pb, pc in sorted(rows):
    print(f'  {r:.3f} {k[0]:5s} {k[1]:22s} M={k[2]:5d} base {pb} | s33rule {pc}')
