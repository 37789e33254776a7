# Session 65: the row split rule (s54-rowsplit evaluate.py functions) on call1-rowsplit/ (run from a folder holding
# call1/rowsplit.tar.gz, with PYTHONPATH=bench/results/2026-12-03-h200/s54-rowsplit): python3 rowsplit_eval.py EVAL_RS_BINARY
# (eval_rs.cpp of s54-rowsplit built against the libmixgemm.a of main -> rowsplit-main.txt, of this change -> rowsplit-rankown.txt)
import sys, itertools
import os
_src = open(os.path.join(os.path.dirname(__file__), '../../../2026-12-03-h200/s54-rowsplit/evaluate.py')).read()
exec(_src[:_src.index('old_bin, new_bin = sys.argv[1], sys.argv[2]')])  # its functions: model, rule, meas, oracle, g, report
P = model(sys.argv[1], 1)
assert all(rule(p, 10, 1.0) == p['head'] for p in P)
print(len(P), 'points')
for t in ('all', 'f16', 's8', 'e4m3'):
    sel = [p for p in P if t == 'all' or p['t'] == t]
    print(t)
    report('session 54 (10 us, 1.0)', lambda p: p['head'], sel)
    report('session 33 (6 us, 0.95)', lambda p: rule(p, 6, 0.95), sel)
    report('never split', lambda p: 0, sel)
    report('fastest measured', oracle, sel)
G = list(itertools.product([0, 2, 4, 6, 8, 10, 12, 14, 16, 20, 30, 40], [0.9, 0.93, 0.95, 0.97, 1.0, 1.03, 1.06], [0, 0.25, 0.5, 1.0]))
score = lambda a, P: g([meas(p, rule(p, *a)) / p['one'] for p in P])
print('best of the grid (sec, margin, half):', ', '.join(f'{a} {s:.4f}' for s, a in sorted((score(a, P), a) for a in G)[:6]))
for s in sorted(set(p['shape'].split('/')[0] for p in P)):
    tr = [p for p in P if not p['shape'].startswith(s)]; te = [p for p in P if p['shape'].startswith(s)]
    a = min(G, key=lambda a: score(a, tr))
    print(f' held out {s}: fitted {a} on the rest -> {score(a, te):.4f}; (10, 1.0) {score((10, 1.0), te):.4f}; fastest {g([meas(p, oracle(p)) / p["one"] for p in te]):.4f}')
