# Session 68: schedules that differ only in o (t8_w4_o4 / o2, t8_w8_o2 / o1, t16_w8_o2 / o1, t16_w4_o4 / o2) where the
# stripe cut gives both the same C (one CTA per SM): the larger o over the smaller, per C band of 16, M <= 16, CUDA graphs
# and event-timed, on session 67 call 3's table and session 68 call 1(b)'s. Run from this folder.
import csv, gzip, math, collections
def opn(f): return gzip.open(f, 'rt')
def load(f):
    return {(r['shape'], r['type_spec'].split('.')[0], int(r['M']), r['schedule']): float(r['us_median'])
            for r in csv.DictReader(opn(f)) if r['kernel'] == 'mixgemm' and r['status'] == 'ok'}
F = {}
for f in ['f3.csv.gz', 'fb.csv.gz']:
    for r in csv.DictReader(opn(f)): F[(r['shape'], r['ty'], int(r['M']), r['sched'])] = r
C3 = '../../s67-aligned/call3-ab/new-'; C1 = '../call1-rscale-heldout/b/'
bins = collections.defaultdict(lambda: [[], []])
for g, e in [(C3 + 'graph.csv.gz', C3 + 'event.csv.gz'), (C1 + 'graph.csv.gz', C1 + 'event.csv.gz')]:
    G = load(g); E = load(e)
    for hi, lo in [('smallm_t8_w4_o4_p0', 'smallm_t8_w4_o2_p0'), ('smallm_t8_w8_o2_p0', 'smallm_t8_w8_o1_p0'),
                   ('smallm_t16_w8_o2_p0', 'smallm_t16_w8_o1_p0'), ('smallm_t16_w4_o4_p0', 'smallm_t16_w4_o2_p0')]:
        for k, v in G.items():
            if k[3] != hi or k[2] > 16: continue
            k2 = k[:3] + (lo,); f1 = F.get(k); f2 = F.get(k2)
            if not f1 or not f2 or k2 not in G or f1['C'] != f2['C'] or f1['aligned'] != '1': continue
            b = (hi.split('_')[1], min(int(f1['C']) // 16 * 16, 128))
            bins[b][0].append(v / G[k2]); bins[b][1].append(E[k] / E[k2])
gm = lambda x: math.exp(sum(map(math.log, x)) / len(x))
print('token tile, C band (128: C >= 128): larger o / smaller o, same C; graphs gm (min-max), event-timed gm (min-max)')
for b in sorted(bins):
    g, e = bins[b]
    print(f'{b[0]:4s} C {b[1]:3d}-{b[1] + 15:3d} n={len(g):3d}  graph {gm(g):.3f} ({min(g):.2f}-{max(g):.2f})  event {gm(e):.3f} ({min(e):.2f}-{max(e):.2f})')
