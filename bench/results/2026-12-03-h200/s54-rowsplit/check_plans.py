#!/usr/bin/env python3
"""Session 54 call 3: gemm() with the new rule (MIXGEMM_ROW_SPLIT=1) on call 2's grid, against call 2's timings of
the plan it ran (run from this folder). Splits: the points where the plan has a head. Across calls the machine
drifts; within each group the ratio is this run's time over call 2's for the same plan."""
import csv, io, math, re, tarfile
from make_table import points
c2 = {(a, N, K, M): (one, s256, s128) for (a, N, K, M), sh, one, s256, s128 in points('call2/rowsplit.tar.gz')}
rr = {}
with tarfile.open('call3/check.tar.gz') as t:
    for i in (1, 2):
        for x in csv.DictReader(io.TextIOWrapper(t.extractfile(f'check/rule{i}.csv'))):
            if x['status'] != 'ok': continue
            k = (x['type_spec'].split('.')[0], int(x['N']), int(x['K']), int(x['M']))
            rr.setdefault(k, []).append((float(x['us_median']), x['schedule']))
grp = {True: [], False: []}
for k, v in rr.items():
    t = sum(u for u, _ in v) / len(v)
    one, s256, s128 = c2[k]; M = k[3]
    m = re.search(r'\[(\d+)\]', v[0][1]); h = int(m.group(1)) if m else 0
    same = one if h == 0 else (s256 if h == M - M % 256 else s128)
    grp[h > 0].append(math.log(t / same))
for s in (True, False):
    print(f"{'split' if s else 'one launch'}: {len(grp[s])} points, this run / call 2's time of the same plan "
          f"{math.exp(sum(grp[s]) / len(grp[s])):.4f}")
