# Session 63: a per-tile linear time model (blocks per busiest CTA, padded blocks, partial-sum MB, waves; 13
# coefficients per type) fitted to detail-{event,graph}.txt (pick_vs_best ALLDETAIL=1 output: each tile's split as the
# heuristic runs it), in-sample and leaving one layer out: how well a refitted sm90 model could rank the tiles at
# M = 24..128. Needs numpy. python3 fit_tiles.py
import re, math, collections, csv, sys
import numpy as np
NK={}
for r in csv.DictReader(open('../../s63-allsched32/as-event.csv')): NK[r['shape']]=(int(r['N']),int(r['K']))
def load(fn):
    rows=[]
    for l in open(fn):
        f=l.split()
        k=f[0]; tile=f[1]; meas=float(f[-1])
        if meas<0: continue
        whole=int(f[6]); s=int(f[8]); stream=int(f[10])
        shape,typ,M=k.split('|'); M=int(M); typ=typ.split('.')[0]
        tn,tt=map(int,re.match(r'sm90_(\d+)x(\d+)',tile).groups())
        N,K=NK[shape]
        rows.append(dict(shape=shape,typ=typ,M=M,tile=f"{tn}x{tt}",tn=tn,tt=tt,N=N,K=K,whole=whole,s=s,stream=stream,meas=meas))
    return rows
P=132
def feats(r):
    tiles=math.ceil(r['N']/r['tn'])*math.ceil(r['M']/r['tt'])
    kb=r['K']/64
    whole=r['whole']; s=r['s']
    if r['stream']>0:
        w_whole=math.ceil(whole/P)
        per=math.ceil((tiles-whole)*kb/P)
        blocks=w_whole*kb+per; waves=w_whole+1
        pad=(r['tt']*math.ceil(r['M']/r['tt'])-r['M'])/r['tt']
        parts=math.ceil(kb/per)+1
        red=parts*r['tn']*r['tt']*4/1e6
        padblocks=blocks*pad/math.ceil(r['M']/r['tt'])
        return blocks,waves,padblocks,red
    split_units=(tiles-whole)*s
    w_whole=math.ceil(whole/P); w_split=math.ceil(split_units/P) if split_units>0 else 0
    blocks=w_whole*kb + w_split*kb/s          # blocks per busiest CTA
    waves=w_whole+w_split
    pad=(r['tt']*math.ceil(r['M']/r['tt'])-r['M'])/r['tt']  # padded share of the last token tile
    padblocks=blocks*pad if math.ceil(r['M']/r['tt'])==1 else blocks*pad/math.ceil(r['M']/r['tt'])
    red=(s+1)*r['tn']*r['tt']*4/1e6*w_split if s>1 else 0  # MB of partial traffic per CTA
    return blocks,waves,padblocks,red
tiles=['128x64','256x64','128x128']
def design(rows):
    X=[];y=[]
    for r in rows:
        b,w,pb,red=feats(r)
        row=[1.0]
        for t in tiles:
            on=1.0 if r['tile']==t else 0.0
            row+= [on*b, on*pb, on*red, on*w]
        X.append(row); y.append(r['meas'])
    return np.array(X),np.array(y)
def fit(rows):
    X,y=design(rows)
    W=1/y  # relative error
    c,*_=np.linalg.lstsq(X*W[:,None], y*W, rcond=None)
    return c
def evaluate(rows,c,label):
    X,y=design(rows); pred=X@c
    err=np.abs(pred/y-1)
    pts=collections.defaultdict(dict)
    for r,p in zip(rows,pred): pts[(r['shape'],r['M'])][r['tile']]=(p,r['meas'])
    rat=[]
    for k,d in pts.items():
        pick=min(d,key=lambda t:d[t][0]); best=min(d[t][1] for t in d)
        rat.append(d[pick][1]/best)
    g=math.exp(sum(map(math.log,rat))/len(rat))
    print(f"{label}: rel err median {np.median(err):.3f} p90 {np.percentile(err,90):.3f}; pick/best geomean {g:.4f} max {max(rat):.3f} n {len(rat)}")
for mode in ['event','graph']:
    allrows=load(f'detail-{mode}.txt')
    for typ in ['f16','s8']:
        rows=[r for r in allrows if r['typ']==typ]
        c=fit(rows)
        evaluate(rows,c,f"{mode} {typ} in-sample")
        # leave one shape out
        shapes=sorted(set(r['shape'] for r in rows)); rat_all=[]
        preds={}
        for sh in shapes:
            cc=fit([r for r in rows if r['shape']!=sh])
            te=[r for r in rows if r['shape']==sh]
            X,_=design(te)
            for r,p in zip(te,X@cc): preds[id(r)]=p
        pts=collections.defaultdict(dict)
        for r in rows: pts[(r['shape'],r['M'])][r['tile']]=(preds[id(r)],r['meas'])
        rat=[]
        for k,d in pts.items():
            pick=min(d,key=lambda t:d[t][0]); best=min(d[t][1] for t in d); rat.append(d[pick][1]/best)
        print(f"   {mode} {typ} leave-one-shape-out pick/best geomean {math.exp(sum(map(math.log,rat))/len(rat)):.4f} max {max(rat):.3f}")
        if mode=='event': print('   coef', np.round(c,3))
