# Session 97: the tables of summary.md from {event,graph}-{marlin,qqq}.txt (scripts/reference_compare.py's output).
#   python3 summary.py > summary.md
import math
def rd(f):
    rows = []
    for l in open(f):
        p = l.split()
        if len(p) == 11 and p[2].isdigit():
            rows.append(dict(shape=p[0], type=p[1], M=int(p[2]), mix=float(p[3]), mixf=float(p[4]), ref=float(p[5]),
                             reff=float(p[6]), r=float(p[5]) / float(p[3])))
    return rows
def gm(v): return math.exp(sum(map(math.log, v)) / len(v))
print('Reference time / mixgemm time (> 1: mixgemm faster), geomean (min .. max) over the 9 layers (summary.py)')
print()
print('| | M <= 16 event | M <= 16 graphs | M = 32..64 event / graphs | M = 128 event / graphs |')
print('|---|---|---|---|---|')
for ref, t, lab in (('marlin', 'f16.u4b8.g128', 'Marlin, f16 g128'), ('marlin', 'f16.u4b8.gch', 'Marlin, f16 per-channel'),
                    ('qqq', 's8.u4b8.g128', 'QQQ, s8 g128'), ('qqq', 's8.u4b8.gch', 'QQQ, s8 per-channel')):
    e = [x for x in rd(f'event-{ref}.txt') if x['type'] == t]; g = [x for x in rd(f'graph-{ref}.txt') if x['type'] == t]
    def sel(rs, lo, hi): return [x['r'] for x in rs if lo <= x['M'] <= hi]
    a = sel(e, 1, 16); b = sel(g, 1, 16)
    print(f'| {lab} | {gm(a):.3f} ({min(a):.2f} .. {max(a):.2f}) | {gm(b):.3f} ({min(b):.2f} .. {max(b):.2f}) | '
          f'{gm(sel(e, 32, 64)):.2f} / {gm(sel(g, 32, 64)):.2f} | {gm(sel(e, 128, 128)):.2f} / {gm(sel(g, 128, 128)):.2f} |')
print()
print('| share of the floor, M = 1..16 | seed + Llama-2-70B, event / graphs | Llama-3-8B, event / graphs |')
print('|---|---|---|')
for ref, t, name in (('marlin', 'f16.u4b8.g128', 'f16 g128'), ('qqq', 's8.u4b8.g128', 's8 g128')):
    e = [x for x in rd(f'event-{ref}.txt') if x['type'] == t and x['M'] <= 16]
    g = [x for x in rd(f'graph-{ref}.txt') if x['type'] == t and x['M'] <= 16]
    def rng(rs, key, big):
        v = [x[key] for x in rs if (not x['shape'].startswith('llama3-8b')) == big]; return f'{min(v):.0f}-{max(v):.0f}%'
    other = 'Marlin' if ref == 'marlin' else 'QQQ'
    print(f'| mixgemm {name} | {rng(e, "mixf", 1)} / {rng(g, "mixf", 1)} | {rng(e, "mixf", 0)} / {rng(g, "mixf", 0)} |')
    print(f'| {other} {name} | {rng(e, "reff", 1)} / {rng(g, "reff", 1)} | {rng(e, "reff", 0)} / {rng(g, "reff", 0)} |')
