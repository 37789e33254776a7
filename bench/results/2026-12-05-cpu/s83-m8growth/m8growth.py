#!/usr/bin/env python3
"""Same-schedule time growth of the smallm TM 8 decode kernels from M = 1 to M = 8, from session
42's all-schedule table (CUDA graphs, H200): bench/results/2026-12-02-h200/s42-allsched/allsched-a.csv.gz.

For each type (f16 / s8 x u4b8 g128), layer and schedule: t(M = 8) / t(M = 1), and the activation
bytes a launch stages into shared memory at M = 8 beyond M = 1: stripes x K x 7 tokens x element
bytes (each stripe's CTAs stage the activations of their k-range once; stripes = N / (16 x warps x
kNBW), kNBW = 2). Usage: python3 m8growth.py [path to allsched-a.csv.gz]"""
import csv, gzip, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, '../../2026-12-02-h200/s42-allsched/allsched-a.csv.gz')
rows = list(csv.DictReader(gzip.open(path, 'rt')))
t = {}
shape_nk = {}
for r in rows:
    if r['status'] != 'ok' or r['kernel'] != 'mixgemm':
        continue
    t[(r['type_spec'], r['shape'], r['schedule'], int(r['M']))] = float(r['us_median'])
    shape_nk[r['shape']] = (int(r['N']), int(r['K']))

KNBW = 2
print('| type | layer | schedule | stripes | t(M=1) us | t(M=8) us | M=8 / M=1 | extra staged MB at M=8 |')
print('|---|---|---|---|---|---|---|---|')
summary = {}
for (ts, shape, sched, m), t1 in sorted(t.items()):
    if m != 1 or (ts, shape, sched, 8) not in t:
        continue
    mm = re.match(r'smallm_t8_w(\d+)_o(\d+)_p0$', sched)
    if not mm or sched not in ('smallm_t8_w4_o4_p0', 'smallm_t8_w8_o2_p0'):
        continue
    warps = int(mm.group(1))
    n, k = shape_nk[shape]
    stripes = -(-n // (16 * warps * KNBW))
    eb = 2 if ts.startswith(('f16', 'bf16')) else 1
    extra_mb = stripes * k * 7 * eb / 1e6
    t8 = t[(ts, shape, sched, 8)]
    summary.setdefault((ts, sched), []).append(t8 / t1)
    print(f'| {ts} | {shape} | {sched} | {stripes} | {t1:.2f} | {t8:.2f} | {t8 / t1:.3f} | {extra_mb:.1f} |')
print()
print('| type | schedule | median M=8 / M=1 over the layers | min | max |')
print('|---|---|---|---|---|')
for (ts, sched), v in sorted(summary.items()):
    v = sorted(v)
    print(f'| {ts} | {sched} | {v[len(v) // 2]:.3f} | {v[0]:.3f} | {v[-1]:.3f} |')
