# Session 65: the smallm TM 32 row model (smallm_heuristic.cpp, row_model) refitted to measured times: least squares on
# relative error of t = fixed + MT x ceil(rows per CTA) x row_us(w8 | w4) x per_block + contrib x contributors over the
# TM 32 rows (M <= 32) of tm32feat's output (X.tm32 = tm32feat X.csv, the s65-retime call2 / call3 CSVs gunzipped).
import numpy as np, sys
def load(fs, tm='t32'):
    R=[]
    for f in fs:
        for l in open(f):
            x=l.split()
            if not x[5].startswith('smallm_'+tm): continue
            R.append(dict(shape=x[0],t=x[1],M=int(x[4]),cfg=x[5],MT=int(x[6]),rows=float(x[7]),contrib=float(x[8]),pb=float(x[9]),model=float(x[10]),meas=float(x[11])))
    return R
def fit(R):
    X=[];y=[]
    for r in R:
        w8 = '_w8_' in r['cfg']
        X.append([1.0, r['MT']*r['rows']*r['pb']*(1 if w8 else 0), r['MT']*r['rows']*r['pb']*(0 if w8 else 1), r['contrib']]); y.append(r['meas'])
    X=np.array(X); y=np.array(y); W=1/y
    c,*_=np.linalg.lstsq(X*W[:,None], y*W, rcond=None)
    pred=X@c; err=np.abs(pred/y-1)
    return c, np.median(err), err.max()
for name, fs in [('graph f16+s8', ['f16g.tm32','s8g.tm32']), ('event f16+s8 M<=32', ['f16e.tm32','s8e.tm32'])]:
    R=[r for r in load(fs) if r['M']<=32]
    c,med,mx=fit(R)
    print(name, len(R), 'fixed %.2f row_w8 %.3f row_w4 %.3f contrib %.3f' % tuple(c), 'rel err median %.3f max %.3f' % (med,mx))
    print('   current model / measured median', np.median([r['model']/r['meas'] for r in R]))
