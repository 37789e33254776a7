# Per point at M >= 24: the old pick over the fastest schedule and each family's best over the fastest (c3 and call 1(b)
# tables gunzipped as in ratio.py, with the plans p3-main.csv / b plan). Output: families.txt.
import csv, sys, collections, math
def load(f):
    d=collections.defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r['status']!='ok' or r['kernel']!='mixgemm': continue
        d[(r['shape'],r['type_spec'].split('.')[0],int(r['M']))][r['schedule']]=float(r['us_median'])
    return d
def plan(f):
    p={}
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        p[(r['shape'],r['type'].split('.')[0],int(r['M']))]=r['schedule']
    return p
def fam(s):
    if s.startswith('sm90'): return 'sm90'
    return s.split('_')[1]
for tag,ev,gr,pl in [('call3',"c3-event.csv","c3-graph.csv","/work/main/bench/results/2026-12-04-h200/s67-aligned/call3-ab/new-plan.csv"),('held',"b/event.csv","b/graph.csv","b/plan.csv")]:
    P=plan(pl)
    for mode,f in [('event',ev),('graph',gr)]:
        D=load(f)
        print(f'== {tag} {mode}: pick/best, and best of each family / best')
        for k in sorted(D):
            if k[2] < 24 or 'llama3' in k[0]: continue
            t=D[k]; best=min(t.values()); pk=P.get(k)
            fb=collections.defaultdict(lambda: math.inf)
            for s,v in t.items(): fb[fam(s)]=min(fb[fam(s)],v)
            print(f'{k[0]:18s} {k[1]:5s} M={k[2]:3d} pick={pk:32s} {t.get(pk,math.nan)/best:5.3f} | '+' '.join(f'{x}:{fb[x]/best:5.3f}' for x in ['t8','t16','t32','t64','sm90']))
