# The lone-4-warp row factor (smallm_heuristic.cpp, kLoneFourWarpRow): least squares over call 3's new-geometry table,
# f16 x u4b8 g128, TM 8 at M <= 8 and TM 16 at M <= 16, every smallm schedule: time = a + rows per CTA x (a row time per
# class: 8-warp CTA alone on its SM / 4-warp CTA alone / 8-warp shared / 4-warp shared) + contributors x c +
# (stripes x contributors / 132) x d. The factor is the lone 4-warp row over the lone 8-warp one.
#   usage: python3 fit_rows.py CALL3_DIR    (needs numpy)
import csv, gzip, math, os, sys
import numpy as np
D = sys.argv[1]
def opn(f): return gzip.open(f + '.gz', 'rt') if os.path.exists(f + '.gz') else open(f)
def geo(N, K, w, o, sms=132):
    KBn = K // 64; stripes = -(-(N // 16) // (2 * w)); U = stripes * KBn; Cmax = min(o * sms, U)
    R = math.isqrt(KBn); R = R if R * R >= KBn else R + 1
    return (KBn, stripes, U, stripes * R, R, True) if stripes * R < Cmax else (KBn, stripes, U, Cmax, R, False)
for mode in ('graph', 'event'):
    pts = []
    for r in csv.DictReader(opn(f'{D}/new-{mode}.csv')):
        if r['kernel'] != 'mixgemm' or not r['us_median'] or not r['schedule'].startswith('smallm'): continue
        if not r['type_spec'].startswith('f16'): continue
        tm, w, o = [int(x[1:]) for x in r['schedule'].split('_')[1:4]]
        M = int(r['M'])
        if not (tm in (8, 16) and M <= tm): continue
        pts.append((int(r['N']), int(r['K']), tm, w, o, float(r['us_median'])))
    for TM in (8, 16):
        X, y = [], []
        for N, K, tm, w, o, t in pts:
            if tm != TM: continue
            KBn, stripes, U, C, R, al = geo(N, K, w, o)
            rows = math.ceil(U / C); contrib = R if al else math.ceil(KBn / (U / C)) + 1
            warps = max(1, min(o, math.ceil(C / 132))) * w
            X.append([1, rows * (w == 8) * (warps <= 8), rows * (w == 4) * (warps <= 4), rows * (w == 8) * (warps > 8),
                      rows * (w == 4) * (warps > 4), contrib, stripes * contrib / 132.0])
            y.append(t)
        X = np.array(X, float); y = np.array(y)
        c = np.linalg.lstsq(X, y, rcond=None)[0]; err = (X @ c) / y
        print('%s TM %d n=%d  a %.3f  row: w8 alone %.3f, w4 alone %.3f, w8 shared %.3f, w4 shared %.3f  contrib %.3f  parts/SM %.3f'
              '  -> lone w4 / lone w8 = %.2f  (fit/measured p5 %.2f p95 %.2f)' %
              (mode, TM, len(y), *c, c[2] / c[1], *np.percentile(err, [5, 95])))
