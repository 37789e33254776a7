import csv,collections,math,sys,gzip,os
def opn(f): return gzip.open(f+'.gz','rt') if os.path.exists(f+'.gz') else open(f)
# The picks of two heuristics (plan.cpp outputs: 'NxK type M schedule' per line) timed in call 3's every-schedule
# tables, the old pick in the old-geometry table and the new pick in the new-geometry one (same run).
#   usage: python3 ab_picks.py OLD_PICKS.txt NEW_PICKS.txt CALL3_DIR   (CALL3_DIR holds {old,new}-{graph,event}.csv[.gz])
def load(fn):
    t=collections.defaultdict(dict)
    for r in csv.DictReader(opn(fn)):
        if r['kernel']!='mixgemm' or not r['us_median']: continue
        t[(r['N'],r['K'],r['type_spec'].split('.')[0],int(r['M']))][r['schedule']]=float(r['us_median'])
    return t
def plan(fn):
    p={}
    for l in open(fn):
        nk,t,M,s=l.split(); n,k=nk.split('x'); p[(n,k,t,int(M))]=s
    return p
PO=plan(sys.argv[1]); PN=plan(sys.argv[2])
for mode in ('graph','event'):
    O=load(f'{sys.argv[3]}/old-{mode}.csv'); N=load(f'{sys.argv[3]}/new-{mode}.csv')
    g=collections.defaultdict(list); worst=[]
    for k in N:
        if k not in PN: continue
        r=N[k][PN[k]]/O[k][PO[k]]
        narrow=int(k[0])<4096
        g[(k[2],'narrow' if narrow else 'llama3-8b','M<=16' if k[3]<=16 else 'M>16')].append(r)
        worst.append((r,k,PO[k],PN[k]))
    print('==',mode,'new pick (new geometry) / old pick (old geometry), same run')
    for kk in sorted(g): v=g[kk]; print('%-5s %-9s %-6s n=%2d geomean %.3f min %.3f max %.3f'%(kk+(len(v),math.exp(sum(map(math.log,v))/len(v)),min(v),max(v))))
    worst.sort(); print('worst:',' '.join('%s/%s/%s/%d %.3f'%(k[0],k[1],k[2],k[3],r) for r,k,a,b in worst[-5:]))
