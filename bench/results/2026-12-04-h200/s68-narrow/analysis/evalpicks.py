# Two pick lists (pick.cpp: old / new library) timed on one every-schedule table: the moved points, new over old.
#   usage: python3 evalpicks.py EVENT.csv GRAPH.csv PICKS_OLD.csv PICKS_NEW.csv   (output: picks-offline.txt)
import csv, math, collections, sys
def meas(f):
    d={}
    for r in csv.DictReader(open(f)):
        if r['kernel']!='mixgemm' or r['status']!='ok': continue
        d[(r['shape'],r['type_spec'].split('.')[0],int(r['M']),r['schedule'])]=float(r['us_median'])
    return d
def plan(f): return {(r['shape'],r['type'],int(r['M'])):r['schedule'] for r in csv.DictReader(open(f))}
ev,gr,po,pn=sys.argv[1:5]
E,G=meas(ev),meas(gr); PO,PN=plan(po),plan(pn)
agg=collections.defaultdict(lambda: collections.defaultdict(list))
for pt in sorted(PO):
    if PO[pt]==PN[pt]: 
        for m,D in (('g',G),('e',E)): agg[(pt[1],'same')][m].append(1.0)
        continue
    for m,D in (('g',G),('e',E)):
        if pt+(PO[pt],) in D and pt+(PN[pt],) in D:
            agg[(pt[1],'moved')][m].append(D[pt+(PN[pt],)]/D[pt+(PO[pt],)])
    print('  moved', pt, PO[pt], '->', PN[pt], ' new/old graph %.3f event %.3f'%(G[pt+(PN[pt],)]/G[pt+(PO[pt],)], E[pt+(PN[pt],)]/E[pt+(PO[pt],)]))
for k,v in sorted(agg.items()):
    gm=lambda x: math.exp(sum(map(math.log,x))/len(x))
    print(k, 'n=%d'%len(v['g']), 'new/old graph gm %.3f (%.2f-%.2f) event gm %.3f (%.2f-%.2f)'%(gm(v['g']),min(v['g']),max(v['g']),gm(v['e']),min(v['e']),max(v['e'])))
