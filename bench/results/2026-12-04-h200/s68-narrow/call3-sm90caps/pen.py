# Session 68 call 3, offline: sm90's split score busy x (1 - pen x (s - 1)) with a larger per-part penalty, evaluated
# where the split it picks was measured (caps 1 / 2 / 4 / 8 / none of call 3), per tile.
import csv, math, collections, gzip, os
def opn(f): return open(f) if os.path.exists(f) else gzip.open(f + '.gz', 'rt')
P = 132
def split(tiles, K, pen, cap=16):
    max_s = max(1, min(cap, 16, K // 256)); best, bs = -1, 1
    for s in range(1, max_s + 1):
        u = tiles * s; busy = u / (math.ceil(u / P) * P); sc = busy * (1 - pen * (s - 1))
        if sc > best + 1e-12: best, bs = sc, s
    return bs
def cdiv(a, b): return -(-a // b)
today = {}
for r in csv.reader(opn('splits.csv')):
    today[(r[0], int(r[1]), r[2])] = int(r[4]) if int(r[5]) == 0 else 'stream'
ok = 0
for (sh, M, t), s in today.items():
    N, K = map(int, sh.split('x')); tn, tt = map(int, t.split('x'))
    ok += split(cdiv(N, tn) * cdiv(M, tt), K, 0.03) == s or s == 'stream'
print('replica matches today', ok, 'of', len(today), '(stream-K today:', sum(v == 'stream' for v in today.values()), ')')
def load(f): return {(r['shape'].split('/')[-1], r['type_spec'].split('.')[0], int(r['M'])): float(r['us_median']) for r in csv.DictReader(opn(f)) if r['kernel'] == 'mixgemm' and r['status'] == 'ok'}
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float('nan')
for mode in ('graph', 'event'):
    T = {}  # (shape, ty, M, tile, s) -> us
    for t in ('128x64', '256x64', '128x128'):
        tn, tt = map(int, t.split('x'))
        for cap in ('none', '1', '2', '4', '8'):
            for (sh, ty, M), v in load(f'cap{cap}-{t}-{mode}.csv').items():
                N, K = map(int, sh.split('x')); tiles = cdiv(N, tn) * cdiv(M, tt)
                s = today[(sh, M, t)] if cap == 'none' else split(tiles, K, 0.03, int(cap))
                T[(sh, ty, M, t, s)] = v
    print(f'== {mode}: new penalty / today (0.03) per tile, points where the new split was measured (covered / all)')
    for pen in (0.04, 0.05, 0.06, 0.08, 0.10):
        line = []
        for t in ('128x64', '256x64', '128x128'):
            tn, tt = map(int, t.split('x')); r = []; n = 0
            for (sh, ty, M, tile, s), v in T.items():
                if tile != t or s != today[(sh, M, t)]: continue
                n += 1; N, K = map(int, sh.split('x'))
                s2 = split(cdiv(N, tn) * cdiv(M, tt), K, pen)
                if (sh, ty, M, t, s2) in T: r.append(T[(sh, ty, M, t, s2)] / v)
            line.append(f'{t} {gm(r):.3f} ({len(r)}/{n}, max {max(r):.2f})')
        print(f'  pen {pen:.2f}: ' + '; '.join(line))
