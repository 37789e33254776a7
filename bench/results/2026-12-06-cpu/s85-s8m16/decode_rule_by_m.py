# Session 85: the large-layer decode rule's question asked per M instead of over M <= 16 together (s81-narrow/fit.txt
# part 2 lumps M = 1 / 8 / 16): on the H200 tables of s81-narrow/ (CUDA graphs, 13 layers), for each type and M, the
# layers of >= 26 Mi weights where the heuristic's pick (`heur` runs) is a smallm schedule, and sm90 256 x 16's time
# (`t16` runs) over that pick's.
#   tar xzf ../../2026-12-05-h200/s81-narrow/narrow-h200.tar.gz -C /tmp/n81 && python3 decode_rule_by_m.py /tmp/n81
import csv, glob, collections, math, sys
d = sys.argv[1]
t = collections.defaultdict(list)
for f in glob.glob(f'{d}/*.csv'):
    run = f.split('/')[-1].split('-')[0]
    for r in csv.DictReader(open(f)):
        if r['kernel'] != 'mixgemm' or not r['us_median']: continue
        t[(r['shape'], int(r['N']), int(r['K']), r['type_spec'], int(r['M']), run, r['schedule'])].append(float(r['us_median']))
rows = collections.defaultdict(dict)
for (sh, N, K, ts, M, run, s), v in t.items():
    rows[(sh, N, K, ts, M)][(run, s)] = sum(v) / len(v)
for ts in sorted({k[3] for k in rows}):
    for M in sorted({k[4] for k in rows if k[3] == ts}):
        rs = []
        for (sh, N, K, t_, m), dd in sorted(rows.items()):
            if t_ != ts or m != M or N * K < 26 * 2**20: continue
            h = [(s, v) for (run, s), v in dd.items() if run == 'heur']
            x = [v for (run, s), v in dd.items() if run == 't16' and s.startswith('sm90_256x16')]
            if not h or not x or not h[0][0].startswith('smallm'): continue
            rs.append((sh, x[0] / h[0][1]))
        if not rs: continue
        g = math.exp(sum(math.log(r[1]) for r in rs) / len(rs))
        print(f'{ts:16s} M={M:3d} n {len(rs):2d} 256x16/smallm geomean {g:.3f} min {min(r[1] for r in rs):.3f} '
              f'max {max(r[1] for r in rs):.3f}  ' + ' '.join(f'{s}:{v:.3f}' for s, v in rs))
