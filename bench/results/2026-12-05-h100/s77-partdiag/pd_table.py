"""partdiag table: per point the heuristic pick's time (switch 0) and the change with the partial stores skipped
(1), the deferred reduction grid's launch skipped (2), both (3); us, medians of the bench rows (switch 1-3 rows are
status bad_output by design: their outputs are wrong or unwritten). Usage: pd_table.py <dir with *-<sw>-<mode>.csv>"""
import csv, glob, os, sys, math
from collections import defaultdict
t = defaultdict(list); sch = {}
for f in glob.glob(os.path.join(sys.argv[1], '*-[0-3]-*.csv')):
    kind, sw, mode = os.path.basename(f)[:-4].split('-')
    for r in csv.DictReader(open(f)):
        if not r.get('us_median') or r['status'] not in ('ok', 'bad_output'):
            continue
        k = (kind, mode, r['type_spec'], int(r['N']), int(r['K']), int(r['M']))
        t[(int(sw),) + k].append(float(r['us_median'])); sch[k] = r['schedule']
mean = lambda v: sum(v) / len(v)
summ = defaultdict(list)
for kind in ('narrow', 'decode'):
    for mode in ('graph', 'event'):
        print(f'== {kind}, {mode}: pick us, then switch 1 / 2 / 3 minus switch 0 (us)')
        for k in sorted({k[1:] for k in t if k[1] == kind and k[2] == mode}):
            if (0,) + k not in t: continue
            b = mean(t[(0,) + k]); d = [mean(t[(s,) + k]) - b if (s,) + k in t else float('nan') for s in (1, 2, 3)]
            fam = sch[k].split('_')[0] + ('_' + sch[k].split('_')[1] if sch[k].startswith('smallm') else '')
            for s in (1, 2, 3): summ[(kind, mode, s, fam)].append(d[s - 1])
            print(f'{k[2][:6]:6} {k[3]:>5}x{k[4]:<5} M={k[5]:<3} {b:7.2f}  {d[0]:6.2f} {d[1]:6.2f} {d[2]:6.2f}  {sch[k]}')
print('\nmedian change (us) per (set, mode, switch, pick family):')
for k in sorted(summ):
    v = sorted(summ[k]); print(' ', *k, f'n={len(v)} median {v[len(v)//2]:.2f} range {v[0]:.2f}..{v[-1]:.2f}')
