#!/usr/bin/env python3
"""Session 54: the row split rules on call1/ and call2/ (run from this folder).

usage: evaluate.py EVAL_RS_OLD EVAL_RS_NEW
EVAL_RS_*: eval_rs.cpp built against a libmixgemm.a of the rule to evaluate (header of eval_rs.cpp): the old
constants (4b2d926) and the new (4cf5c8e). Prints, per call and type, the geomean of the time of what each rule
runs over the one launch's, over the fastest of the three (regret), the splits taken and the slower ones; the
leave-one-model-set-out check of the constants on call 1; and the parametric rule's grid (it reproduces the C++
rule exactly: the script checks that it picks the same head at every point).
"""
import itertools, math, subprocess, sys, collections
from make_table import points

def model(binary, call):
    lines = []
    for (a, N, K, M), shape, one, s256, s128 in points(f'call{call}/rowsplit.tar.gz'):
        lines.append(f'{a} {N} {K} {M} {one:.2f} {s256:.2f} {s128:.2f} {shape.replace("custom/", "")}')
    out = subprocess.run([binary, '/dev/stdin'], input='\n'.join(lines) + '\n', capture_output=True, text=True, check=True)
    P = []
    for l in out.stdout.splitlines():
        f = l.split()
        p = dict(t=f[0], N=int(f[1]), K=int(f[2]), M=int(f[3]), one=float(f[4]), shape=f[7], head=int(f[8]),
                 t1=float(f[9]), tile=int(f[10]), c=[])
        for i, meas in ((11, float(f[5])), (15, float(f[6]))):
            h = int(f[i]); th, tt, tt16 = map(float, f[i + 1:i + 4])
            if h > 0 and th > 0: p['c'].append(dict(h=h, th=th, tt=tt, tt16=tt16, meas=meas))
        if len(p['c']) == 2 and p['c'][0]['h'] == p['c'][1]['h']:
            p['c'] = [dict(p['c'][0], meas=(p['c'][0]['meas'] + p['c'][1]['meas']) / 2)]
        P.append(p)
    return P

def rule(p, sec, margin, half=0.5):  # core::choose_row_split_among with its constants as parameters
    if p['M'] <= 64 or (p['tile'] >= 128 and p['M'] % p['tile'] == 0): return 0
    best, bh = margin * p['t1'], 0
    for c in p['c']:
        tt = c['tt']
        if p['t'] != 'f16' and p['M'] - c['h'] <= 64: tt += half * max(0, c['tt16'] - tt)
        if c['th'] + tt + sec < best: best, bh = c['th'] + tt + sec, c['h']
    return bh

def meas(p, h):
    return p['one'] if h == 0 else next(c['meas'] for c in p['c'] if c['h'] == h)

def oracle(p):
    return min([(p['one'], 0)] + [(c['meas'], c['h']) for c in p['c']])[1]

def g(a):
    return math.exp(sum(map(math.log, a)) / len(a)) if a else float('nan')

def report(label, fn, P):
    one, reg, sp, slow = [], [], collections.Counter(), []
    for p in P:
        h = fn(p); r = meas(p, h) / p['one']
        one.append(r); reg.append(meas(p, h) / min([p['one']] + [c['meas'] for c in p['c']]))
        if h: sp[p['t']] += 1
        if h and r > 1: slow.append(f"{p['t']} {p['shape']} M={p['M']} {r:.3f}")
    print(f'  {label:28s} {g(one):.4f} regret {g(reg):.4f} (max {max(reg):.2f})  splits ' +
          ' '.join(f'{t} {sp[t]}' for t in ('f16', 's8', 'e4m3')) + f'  slower {len(slow)}' +
          (': ' + '; '.join(slow[:6]) if slow else ''))

old_bin, new_bin = sys.argv[1], sys.argv[2]
for call in (1, 2):
    Po, Pn = model(old_bin, call), model(new_bin, call)
    assert all(rule(p, 6, 0.95) == p['head'] for p in Po) and all(rule(p, 10, 1.0) == p['head'] for p in Pn)
    print(f'call {call}: {len(Po)} points (time of what runs / one launch, geomean)')
    for t in ('all', 'f16', 's8', 'e4m3'):
        sel = lambda P: [p for p in P if t == 'all' or p['t'] == t]
        print(f' {t}')
        report('session 33 (6 us, 0.95)', lambda p: p['head'], sel(Po))
        report('session 54 (10 us, 1.0)', lambda p: p['head'], sel(Pn))
        report('fastest measured', oracle, sel(Po))
    if call == 1:
        G = list(itertools.product([0, 2, 4, 6, 8, 10, 12, 14, 16, 20], [0.9, 0.93, 0.95, 0.97, 1.0, 1.03, 1.06], [0, 0.25, 0.5, 1.0]))
        score = lambda a, P: g([meas(p, rule(p, *a)) / p['one'] for p in P])
        print(' best of the grid (sec, margin, half):', ', '.join(f'{a} {s:.4f}' for s, a in sorted((score(a, Po), a) for a in G)[:5]))
        for s in sorted(set(p['shape'].split('/')[0] for p in Po)):
            tr = [p for p in Po if not p['shape'].startswith(s)]; te = [p for p in Po if p['shape'].startswith(s)]
            a = min(G, key=lambda a: score(a, tr))
            print(f' held out {s}: fitted {a} on the rest -> {score(a, te):.4f}; (10, 1.0) {score((10, 1.0), te):.4f}; '
                  f'(6, 0.95) {score((6, 0.95), te):.4f}; fastest {g([meas(p, oracle(p)) / p["one"] for p in te]):.4f}')
