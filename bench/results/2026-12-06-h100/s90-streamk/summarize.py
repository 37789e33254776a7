#!/usr/bin/env python3
"""Session 90: stream-K against split-K on the same tile (streamk.tar.gz, run from this folder).

usage: summarize.py SPLIT_POINTS
SPLIT_POINTS: split_points.cpp built against a libmixgemm.a of the tree whose picks the runs timed (4b2d926..748af86's
heuristic: build split_points_s90base.cpp, whose sm90_split call predates the element-type arguments; split_points.cpp
is the same probe for the trees after 4b99baf). Per point: the mean of the two auto runs and of the two splitk runs
(MIXGEMM_SM90_SPLIT=splitk: split-K on the tile the heuristic ranked first), the kind of split auto runs (whole tiles,
split-K, stream of the tail, stream of every tile), and per kind and type the geomean of splitk / auto; then every
stream-all point with its activation / weight bytes.
"""
import collections, csv, io, math, subprocess, sys, tarfile


def load(t, name):
    d = {}
    for r in csv.DictReader(io.TextIOWrapper(t.extractfile(f'streamk/{name}.csv'))):
        if r['status'] == 'ok':
            d[(r['shape'], r['type_spec'].split('.')[0], int(r['N']), int(r['K']), int(r['M']))] = float(r['us_median'])
    return d


rows = []
with tarfile.open('streamk.tar.gz') as t:
    for g in ('c1', 'c2', 'bar'):
        a1, a2, s1, s2 = (load(t, f'{g}-{x}') for x in ('auto1', 'auto2', 'splitk1', 'splitk2'))
        for k in a1:
            if k in a2 and k in s1 and k in s2:
                rows.append((g, k, (a1[k] + a2[k]) / 2, (s1[k] + s2[k]) / 2))
inp = ''.join(f"{k[1]} {k[2]} {k[3]} {k[4]} {A:.2f} {k[0].replace('custom/', '')}#{g}\n" for g, k, A, S in rows)
out = subprocess.run([sys.argv[1]], input=inp, capture_output=True, text=True, check=True).stdout.splitlines()
by = collections.defaultdict(list)
stream_all = []
for (g, k, A, S), l in zip(rows, out):
    f = l.split()
    kind = ('stream-all' if f[9] == '0' else 'stream-tail') if f[13] != '0' else ('split-K' if f[11] != '1' else 'whole')
    by[(kind, k[1])].append(S / A)
    if kind == 'stream-all':
        eb = 2 if k[1] == 'f16' else 1
        stream_all.append((S / A, k, f[5], int(f[7]), A, S, k[4] * k[3] * eb / 2**20, k[2] * k[3] / 2 / 2**20))
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print(f'{len(rows)} points; splitk / auto per kind of the auto split (geomean, min, max):')
for key in sorted(by):
    v = by[key]
    print(f'  {key[0]:12s} {key[1]:5s} {len(v):4d} points  {gm(v):.4f}  {min(v):.3f} .. {max(v):.3f}')
print('\nstream-all points, split-K faster first (activation bytes M x K x element, weight bytes N x K / 2):')
for r, k, tile, tiles, A, S, act, w in sorted(stream_all, key=lambda x: x[0]):
    print(f'  {r:.3f}  {k[1]:5s} {k[0][-22:]:22s} M={k[4]:5d} {tile:8s} tiles {tiles:4d}  auto {A:7.1f} us  splitk {S:7.1f} us'
          f'  act {act:5.1f} MiB  w {w:5.1f} MiB')
