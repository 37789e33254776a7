# Session 68 call 3: sm90 on narrow layers with its split-K parts capped (MIXGEMM_X_MAXSPLIT=S, stream-K off) against
# today's split (cap none), per forced tile; and the best (tile, cap) against the heuristic's pick.
import csv, math, collections, gzip, os
import glob
def opn(f): return open(f) if os.path.exists(f) else gzip.open(f + '.gz', 'rt')
def load(f): return {(r['shape'], r['type_spec'].split('.')[0], int(r['M'])): float(r['us_median']) for r in csv.DictReader(opn(f)) if r['kernel'] == 'mixgemm' and r['status'] == 'ok'}
def loads(f): return {(r['shape'], r['type_spec'].split('.')[0], int(r['M'])): (r['schedule'], float(r['us_median'])) for r in csv.DictReader(opn(f)) if r['kernel'] == 'mixgemm' and r['status'] == 'ok'}
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v))
for mode in ('graph', 'event'):
    T = {(cap, t): load(f'cap{cap}-{t}-{mode}.csv') for cap in ('none', '1', '2', '4', '8') for t in ('128x64', '256x64', '128x128')}
    P = loads(f'pick-{mode}.csv')
    print(f'== {mode}: per tile, capped / today (gm over points, by M)')
    for t in ('128x64', '256x64', '128x128'):
        for cap in ('1', '2', '4', '8'):
            byM = collections.defaultdict(list)
            for k, v in T[(cap, t)].items():
                if k in T[('none', t)]: byM[k[2]].append(v / T[('none', t)][k])
            print(f'  {t:8s} cap {cap}: ' + ' '.join(f'M{M}={gm(v):.2f}' for M, v in sorted(byM.items())))
    print(f'== {mode}: best (tile, cap) / the pick, by M and type')
    res = collections.defaultdict(list)
    for k, (s, v) in P.items():
        best = min(T[c].get(k, math.inf) for c in T)
        res[(k[1], k[2])].append(best / v)
    for key in sorted(res): print(f'  {key[0]:5s} M={key[1]:3d} n={len(res[key])} gm {gm(res[key]):.3f} min {min(res[key]):.2f}')
