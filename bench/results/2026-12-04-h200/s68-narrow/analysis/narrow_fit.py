# Session 68: smallm's narrow-layer model (smallm_heuristic.cpp, narrow_model) and the crossover it feeds
# (dispatch.cpp, kNarrowRankScale*), fitted and checked offline.
#   usage: python3 narrow_fit.py [g|e|t]   (target: graph, event or their geometric mean (default, what is merged))
# Run from this folder. Inputs:
#   ../../s67-aligned/call3-ab/new-{event,graph}.csv.gz  session 67 call 3's every-schedule table: the fit
#   ../call1-rscale-heldout/b/{event,graph}.csv.gz       session 68 call 1(b): six held-out narrow layers
#   ../call1-rscale-heldout/a/s1-{event,graph}.csv.gz    session 68 call 1(a), scale 1: call 3's layers measured again
#   f3 / fb / fa.csv.gz   feat.cpp's geometry per smallm schedule and sm90's pick with its ranked time, per table
#   p3 / pb / pa-main.csv.gz  pick.cpp's picks at a68eb6c (the session-67 crossover), the baseline
# Fit: t = a_TM + MT x rows x busy x row_{TM,type} (x 0.7 for 4-warp CTAs) + R x c_TM + partial MB x d_TM over every
# stripe-aligned smallm schedule of TM 16 / 32 / 64 at M >= 16, least squares on the relative error with no negative
# constant (active set), constants rounded to 3 digits. sm90's side: kappa_type x its ranked time (kappa: geometric mean
# of measured over ranked on the fit's narrow points). Decision: the narrow model's best aligned schedule if it is below
# kappa x ranked, else sm90's pick; printed as pick / fastest measured, old and new, at M = 48 / 64.
import csv, math, sys, gzip, os
import numpy as np
MODE = sys.argv[1] if len(sys.argv) > 1 else 't'
def opn(f): return gzip.open(f + '.gz', 'rt') if not os.path.exists(f) and os.path.exists(f + '.gz') else open(f)
def meas(ev, gr):
    E = {}; G = {}
    for f, d in [(ev, E), (gr, G)]:
        for r in csv.DictReader(opn(f)):
            if r['kernel'] != 'mixgemm' or r['status'] != 'ok': continue
            d[(r['shape'], r['type_spec'].split('.')[0], int(r['M']), r['schedule'])] = float(r['us_median'])
    return E, G
def feats(f): return {(r['shape'], r['ty'], int(r['M']), r['sched']): r for r in csv.DictReader(opn(f))}
def plan(f): return {(r['shape'], r['type'], int(r['M'])): r['schedule'] for r in csv.DictReader(opn(f))}
C3 = '../../s67-aligned/call3-ab/new-'; C1 = '../call1-rscale-heldout/'
sets = {'c3 (fit)': (meas(C3 + 'event.csv', C3 + 'graph.csv'), feats('f3.csv'), plan('p3-main.csv')),
        'held out': (meas(C1 + 'b/event.csv', C1 + 'b/graph.csv'), feats('fb.csv'), plan('pb-main.csv')),
        'c3 again': (meas(C1 + 'a/s1-event.csv', C1 + 'a/s1-graph.csv'), feats('fa.csv'), plan('pa-main.csv'))}
TYS = ['f16', 's8', 'e4m3']; TMS = [16, 32, 64]
def tm_of(s): return int(s.split('_')[1][1:])
def sfeat(r):
    tm, w, o = [int(x[1:]) for x in r['sched'].split('_')[1:4]]
    C = int(r['C']); MT = int(r['MT']); rows = int(r['rows']); R = int(r['R']); tb = int(r['tile_bytes'])
    x = [0.0] * (6 * len(TMS)); b = 6 * TMS.index(tm)
    x[b] = 1; x[b + 1 + TYS.index(r['ty'])] = MT * rows * math.ceil(C / 132) * (1 if w == 8 else 0.7)
    x[b + 4] = R; x[b + 5] = MT * C * tb / 1e6
    return x
def target(E, G, k):
    if k not in E or k not in G: return None
    return {'g': G[k], 'e': E[k], 't': math.sqrt(G[k] * E[k])}[MODE]
def aligned(r): return r['sched'].startswith('smallm') and r['aligned'] == '1' and tm_of(r['sched']) >= 16
(E, G), F, P = sets['c3 (fit)']
X = []; y = []
for k, r in F.items():
    if aligned(r) and k[2] >= 16 and target(E, G, k): X.append(sfeat(r)); y.append(target(E, G, k))
X = np.array(X); y = np.array(y); A = X / y[:, None]; bb = np.ones(len(y)); act = list(range(X.shape[1]))
while True:
    c, *_ = np.linalg.lstsq(A[:, act], bb, rcond=None)
    neg = [a for a, v in zip(act, c) if v < 0]
    if not neg: break
    act = [a for a in act if a not in neg]
coef = np.zeros(X.shape[1]); coef[act] = c; coef = np.array([float('%.3g' % v) for v in coef])
print(f'fit on {len(y)} points (target {MODE}); per TM: fixed, row f16, row s8, row e4m3, per contributor, per partial MB')
for i, tm in enumerate(TMS): print(f'  TM {tm}: ' + ', '.join('%.3g' % v for v in coef[6 * i:6 * i + 6]))
def spred(r): return float(np.dot(sfeat(r), coef))
def smt(r): return float(r['t_rank'])
kap = {}
for ty in TYS:
    rr = [target(E, G, k) / smt(r) for k, r in F.items() if k[1] == ty and r['sched'].startswith('sm90') and k[2] >= 16
          and target(E, G, k) and any(aligned(x) for kk, x in F.items() if kk[:3] == k[:3])]
    kap[ty] = math.exp(np.mean(np.log(rr)))
    print(f'  kappa {ty}: {kap[ty]:.3f} (n {len(rr)}, {min(rr) / kap[ty]:.2f}-{max(rr) / kap[ty]:.2f} of it)')
gm = lambda v: math.exp(np.mean(np.log(v)))
for tag, ((E, G), F, P) in sets.items():
    res = [spred(r) / target(E, G, k) for k, r in F.items() if aligned(r) and k[2] >= 16 and target(E, G, k)]
    print(f'== {tag}: model / measured over {len(res)} aligned points: gm {gm(res):.3f}, 5th-95th {np.percentile(res, 5):.2f}-{np.percentile(res, 95):.2f}')
    for ty in TYS:
        old = {'g': [], 'e': []}; new = {'g': [], 'e': []}; moved = 0; n = 0
        for pt in sorted({k[:3] for k in F}):
            if pt[1] != ty or pt[2] not in (48, 64): continue
            cands = [(k, r) for k, r in F.items() if k[:3] == pt]
            al = [(k, r) for k, r in cands if aligned(r)]
            if not al: continue
            sm = [(k, r) for k, r in cands if r['sched'].startswith('sm90')][0]
            ts = min(al, key=lambda kr: spred(kr[1]))
            pick_new = ts[0][3] if spred(ts[1]) < kap[ty] * smt(sm[1]) else sm[0][3]
            n += 1; moved += pick_new != P[pt]
            for m, D in (('g', G), ('e', E)):
                best = min(v for kk, v in D.items() if kk[:3] == pt)
                old[m].append(D[pt + (P[pt],)] / best); new[m].append(D[pt + (pick_new,)] / best)
        print(f'  {ty:5s} M = 48 / 64, {n:2d} points, {moved:2d} moved: pick / fastest in graphs {gm(old["g"]):.3f} -> '
              f'{gm(new["g"]):.3f} (worst {max(new["g"]):.2f}), event-timed {gm(old["e"]):.3f} -> {gm(new["e"]):.3f} (worst {max(new["e"]):.2f})')
