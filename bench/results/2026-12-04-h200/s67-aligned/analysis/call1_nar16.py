# Call 1: per narrow layer, type and M, the heuristic's pick (nar16-plan.csv), the fastest smallm schedule and the
# fastest sm90 tile, event-timed and in CUDA graphs. usage: python3 call1_nar16.py CALL1_DIR
import csv,gzip,collections,sys,math,os
os.chdir(sys.argv[1])
plan={}
for r in csv.reader(open('nar16-plan.csv')):
    if len(r)<7 or r[0]=='shape' or r[0].startswith('#'): continue
    plan[(r[0],r[4],int(r[5]))]=r[6]
for tag,fn in (('event','nar16-event.csv.gz'),('graph','nar16.csv.gz')):
    t=collections.defaultdict(dict)
    for r in csv.DictReader(gzip.open(fn,'rt')):
        if r['kernel']!='mixgemm' or not r['us_median']: continue
        t[(r['shape'],r['type_spec'],int(r['M']))][r['schedule']]=float(r['us_median'])
    print('==',tag)
    g=collections.defaultdict(list)
    for k in sorted(t):
        d=t[k]; p=plan[k]
        sm=min((v,s) for s,v in d.items() if s.startswith('smallm'))
        s9=min((v,s) for s,v in d.items() if s.startswith('sm90'))
        best=min(sm,s9)
        print(f"{k[0]:20s} {k[1]:14s} M={k[2]:2d} pick {p:24s} {d[p]:7.2f} | best smallm {sm[1]:22s} {sm[0]:7.2f} | sm90 {s9[1][:11]} {s9[0]:7.2f} | s9/pick {s9[0]/d[p]:.3f}")
        g[(k[1],k[2])].append(s9[0]/d[p])
    for k in sorted(g): print(k, 'geomean sm90best/pick %.3f'%math.exp(sum(map(math.log,g[k]))/len(g[k])), 'min %.3f max %.3f'%(min(g[k]),max(g[k])))
