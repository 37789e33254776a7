# Call 3: every smallm schedule's time with the new geometry over the old one (same run, same schedule), by whether the
# schedule's C changed: 'same' (C kept), '<=sms' (cut to <= 132 CTAs), '>sms' (cut, but more CTAs than SMs).
#   usage: python3 geometry_classes.py CALL3_DIR
import csv, collections, gzip, math, os, sys
D = sys.argv[1]
def opn(f): return gzip.open(f + '.gz', 'rt') if os.path.exists(f + '.gz') else open(f)
def load(fn):
    t = collections.defaultdict(dict)
    for r in csv.DictReader(opn(f'{D}/{fn}')):
        if r['kernel'] != 'mixgemm' or not r['us_median']: continue
        t[(int(r['N']), int(r['K']), r['type_spec'], int(r['M']))][r['schedule']] = float(r['us_median'])
    return t
def geo(N, K, w, o, sms=132):
    KBn = K // 64; stripes = -(-(N // 16) // (2 * w)); U = stripes * KBn; Cmax = min(o * sms, U)
    R = math.isqrt(KBn); R = R if R * R >= KBn else R + 1
    return Cmax, min(Cmax, stripes * R)
for mode in ('graph', 'event'):
    N = load(f'new-{mode}.csv'); O = load(f'old-{mode}.csv')
    agg = collections.defaultdict(list); bad = []
    for k in N:
        for s, v in N[k].items():
            if not s.startswith('smallm'): continue
            tm, w, o = [int(x[1:]) for x in s.split('_')[1:4]]
            Cmax, Cn = geo(k[0], k[1], w, o)
            cls = 'same' if Cn == Cmax else ('<=sms' if Cn <= 132 else '>sms')
            agg[cls].append(v / O[k][s])
            if v / O[k][s] > 1.05: bad.append('%dx%d %s M=%d %s %.2f -> %.2f' % (k[0], k[1], k[2][:4], k[3], s, O[k][s], v))
    print('==', mode)
    for c, v in sorted(agg.items()):
        print('%-6s n=%4d geomean %.3f min %.3f max %.3f' % (c, len(v), math.exp(sum(map(math.log, v)) / len(v)), min(v), max(v)))
    print('slower than 1.05x:', len(bad)); print('\n'.join('  ' + b for b in bad))
