#!/usr/bin/env python3
"""Session 90: which points of multi.tar.gz the stream-K L2 guard moved, and their time (run from this folder).

usage: moved_points.py SPLIT_POINTS_BASE SPLIT_POINTS_GUARD EVAL_RS_BASE EVAL_RS_GUARD
SPLIT_POINTS_*: ../s90-streamk/split_points*.cpp built against the base (f24d062) and the guarded (4b99baf) library;
EVAL_RS_*: ../../2026-12-03-h200/s54-rowsplit/eval_rs.cpp built against the same two. A point moved if its one-launch
plan (tile, whole tiles, split-K parts, stream-K CTAs) or its row split head differs. Prints streamguard / base time
per moved point (the mean of the two runs each) and the geomeans of the moved and unmoved points. (A row-split point
whose head did not move may still have moved inside its slices; such points count as unmoved here.)
"""
import csv, io, math, subprocess, sys, tarfile


def load(t, name):
    d = {}
    for r in csv.DictReader(io.TextIOWrapper(t.extractfile(f'multi/{name}.csv'))):
        if r['kernel'] == 'mixgemm' and r['status'] == 'ok':
            d[(r['shape'], r['type_spec'].split('.')[0], int(r['N']), int(r['K']), int(r['M']))] = (float(r['us_median']), r['schedule'])
    return d


with tarfile.open('multi.tar.gz') as t:
    b1, b2, v1, v2 = (load(t, n) for n in ('base-1', 'base-2', 'streamguard-1', 'streamguard-2'))
keys = [k for k in b1 if k in b2 and k in v1 and k in v2]
run = lambda exe, lines: subprocess.run([exe] + (['/dev/stdin'] if 'eval' in exe else []), input=lines,
                                        capture_output=True, text=True, check=True).stdout.splitlines()
sp = ''.join(f'{k[1]} {k[2]} {k[3]} {k[4]} 1.0 x\n' for k in keys)
rs = ''.join(f'{k[1]} {k[2]} {k[3]} {k[4]} 1.0 1.0 1.0 x\n' for k in keys)
so, sn, ro, rn = run(sys.argv[1], sp), run(sys.argv[2], sp), run(sys.argv[3], rs), run(sys.argv[4], rs)
moved, kept = [], []
for k, a, b, c, d in zip(keys, so, sn, ro, rn):
    r = (v1[k][0] + v2[k][0]) / (b1[k][0] + b2[k][0])
    pa, pb = a.split()[5:14], b.split()[5:14]
    ha, hb = c.split()[8], d.split()[8]
    (moved if pa != pb or ha != hb else kept).append((r, k, ' '.join(pa[::2]), ' '.join(pb[::2]), ha, hb, v1[k][0] / b1[k][0], v2[k][0] / b2[k][0]))
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print(f'moved {len(moved)} points: geomean {gm([m[0] for m in moved]):.4f}; unmoved {len(kept)}: {gm([m[0] for m in kept]):.4f}')
for r, k, pa, pb, ha, hb, r1, r2 in sorted(moved):
    print(f'  {r:.3f} (runs {r1:.3f} / {r2:.3f})  {k[1]:5s} {k[0][-20:]:20s} M={k[4]:5d}  head {ha} -> {hb}  one launch '
          f'[tile tiles whole splits stream] {pa} -> {pb}')
