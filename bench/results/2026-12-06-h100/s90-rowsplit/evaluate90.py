#!/usr/bin/env python3
"""Session 90: the row split rule on today's kernels (H100), from call1/ and call2/ (run from this folder).

usage: evaluate90.py EVAL_RS
EVAL_RS: session 54's eval_rs.cpp (../../2026-12-03-h200/s54-rowsplit/, build line in its README) built against a
libmixgemm.a of the tree to evaluate. Reads the runs with session 54's make_table.points (one launch, splits at the
256- and 128-head, two runs each) and prints, per call and type, the geomean of the time of what today's rule runs over
the one launch's, its regret against the fastest of the three, the splits taken and the slower ones; the same for
"never split"; and, on call 1, the best of session 54's constant grid (sec, margin, half), the leave-one-model-set-out
fit, and the points where the rule splits and one launch measured faster (or the reverse) by more than 3%.
"""
import collections, itertools, math, os, subprocess, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../2026-12-03-h200/s54-rowsplit'))
from make_table import points  # noqa: E402


def model(binary, call):
    lines = [f'{a} {N} {K} {M} {one:.2f} {s256:.2f} {s128:.2f} {shape.replace("custom/", "")}'
             for (a, N, K, M), shape, one, s256, s128 in points(f'call{call}/rowsplit.tar.gz')]
    out = subprocess.run([binary, '/dev/stdin'], input='\n'.join(lines) + '\n', capture_output=True, text=True,
                         check=True)
    P = []
    for l in out.stdout.splitlines():
        f = l.split()
        p = dict(t=f[0], N=int(f[1]), K=int(f[2]), M=int(f[3]), one=float(f[4]), shape=f[7], head=int(f[8]),
                 t1=float(f[9]), tile=int(f[10]), c=[])
        for i, meas in ((11, float(f[5])), (15, float(f[6]))):
            h = int(f[i]); th, tt, tt16 = map(float, f[i + 1:i + 4])
            if h > 0 and th > 0 and meas > 0: p['c'].append(dict(h=h, th=th, tt=tt, tt16=tt16, meas=meas))
        if len(p['c']) == 2 and p['c'][0]['h'] == p['c'][1]['h']:
            p['c'] = [p['c'][0]]
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
    print(f'  {label:24s} {g(one):.4f} regret {g(reg):.4f} (max {max(reg):.2f})  splits ' +
          ' '.join(f'{t} {sp[t]}' for t in ('f16', 's8', 'e4m3')) + f'  slower {len(slow)}' +
          (': ' + '; '.join(sorted(slow, key=lambda s: -float(s.split()[-1]))[:6]) if slow else ''))


binary = sys.argv[1]
for call in (1, 2):
    P = model(binary, call)
    bad = [p for p in P if rule(p, 10, 1.0) != p['head']]
    print(f'call {call}: {len(P)} points (time of what runs / one launch, geomean); '
          f'the parametric rule (10 us, 1.0, 0.5) differs from the library at {len(bad)}')
    for t in ('all', 'f16', 's8', 'e4m3'):
        sel = [p for p in P if t == 'all' or p['t'] == t]
        print(f' {t}')
        report("today's rule", lambda p: p['head'], sel)
        report('never split', lambda p: 0, sel)
        report('fastest measured', oracle, sel)
    G = list(itertools.product([0, 2, 4, 6, 8, 10, 12, 14, 16, 20], [0.9, 0.93, 0.95, 0.97, 1.0, 1.03, 1.06],
                               [0, 0.25, 0.5, 1.0]))
    score = lambda a, Q: g([meas(p, rule(p, *a)) / p['one'] for p in Q])
    print(' best of the grid (sec, margin, half):',
          ', '.join(f'{a} {s:.4f}' for s, a in sorted((score(a, P), a) for a in G)[:5]), f'; (10, 1.0, 0.5) {score((10, 1.0, 0.5), P):.4f}')
    if call == 1:
        for s in sorted(set(p['shape'].split('/')[0] for p in P)):
            tr = [p for p in P if not p['shape'].startswith(s)]; te = [p for p in P if p['shape'].startswith(s)]
            a = min(G, key=lambda a: score(a, tr))
            print(f' held out {s}: fitted {a} on the rest -> {score(a, te):.4f}; (10, 1.0, 0.5) '
                  f'{score((10, 1.0, 0.5), te):.4f}; fastest {g([meas(p, oracle(p)) / p["one"] for p in te]):.4f}')
    wrong = [(meas(p, p['head']) / meas(p, oracle(p)), p) for p in P if meas(p, p['head']) > 1.03 * meas(p, oracle(p))]
    print(f' points where what the rule runs is > 3% slower than the fastest measured: {len(wrong)}')
    for r, p in sorted(wrong, key=lambda x: -x[0])[:12]:
        print(f"   {p['t']:5s} {p['shape']:22s} M={p['M']:5d} rule head {p['head']:5d} -> {r:.3f}x the fastest "
              f"(head {oracle(p)}); one {p['one']:.1f} us, " + ', '.join(f"split {c['h']} {c['meas']:.1f}" for c in p['c']))
