# Session 68 call 2: held-out A/B of the narrow model + ring tie (new) against a68eb6c's picks (old, env switches),
# same build and run: graphs (two alternating runs each side, the mean of the two medians' ratio), event-timed.
import csv, math, collections, gzip, os
import sys
def opn(f): return open(f) if os.path.exists(f) else gzip.open(f + '.gz', 'rt')
def load(f): return {(r['shape'], r['type_spec'], int(r['M'])): (r['schedule'], float(r['us_median'])) for r in csv.DictReader(opn(f)) if r['kernel'] == 'mixgemm' and r['status'] == 'ok'}
n1, o1, n2, o2 = (load(f'held-{x}-graph.csv') for x in ('new1', 'old1', 'new2', 'old2'))
ne, oe = load('held-new-event.csv'), load('held-old-event.csv')
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float('nan')
agg = collections.defaultdict(lambda: {'g': [], 'e': []})
rows = []
for k in sorted(n1):
    if k not in o1 or k not in n2 or k not in o2 or k not in ne or k not in oe: continue
    moved = n1[k][0] != o1[k][0]
    rg = math.sqrt((n1[k][1] / o1[k][1]) * (n2[k][1] / o2[k][1])); re_ = ne[k][1] / oe[k][1]
    band = 'M<=16' if k[2] <= 16 else 'M33-64'
    agg[(k[1].split('.')[0], band, 'moved' if moved else 'same')]['g'].append(rg)
    agg[(k[1].split('.')[0], band, 'moved' if moved else 'same')]['e'].append(re_)
    if moved: rows.append((k, o1[k][0], n1[k][0], rg, re_))
print('type, M band, moved?: n, new / old time in CUDA graphs gm (min-max), event-timed gm (min-max)')
for key in sorted(agg):
    g, e = agg[key]['g'], agg[key]['e']
    print(f'{key[0]:5s} {key[1]:7s} {key[2]:5s} n={len(g):3d} graph {gm(g):.3f} ({min(g):.2f}-{max(g):.2f}) event {gm(e):.3f} ({min(e):.2f}-{max(e):.2f})')
allg = [x for k, v in agg.items() if k[2] == 'moved' for x in v['g']]; alle = [x for k, v in agg.items() if k[2] == 'moved' for x in v['e']]
print(f'all moved: n={len(allg)} graph {gm(allg):.3f} event {gm(alle):.3f}; slower than 1.05x: graph {sum(x > 1.05 for x in allg)}, event {sum(x > 1.05 for x in alle)}')
print('\nmoved points (shape, type, M): old -> new, graph ratio, event ratio')
for k, o, n, rg, re_ in rows: print(f'  {k[0]:18s} {k[1]:16s} M={k[2]:3d} {o:32s} -> {n:32s} {rg:.3f} {re_:.3f}')
