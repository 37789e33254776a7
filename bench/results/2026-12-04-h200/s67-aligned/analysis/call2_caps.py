# Call 2: the fastest smallm schedule per point for each CTA cap (rR: MIXGEMM_X_PARTS=R; c0: the cluster split-K
# off), with the base pick's time and sm90 128 x 64's. usage: python3 call2_caps.py EXTRACTED_RUNS_DIR graph|event
import csv,collections,math,sys,os
cfgs=['base','r4','r6','r8','r12','r16','c0','c0r4','c0r8','c0r16']
def load(fn):
    t=collections.defaultdict(dict)
    for r in csv.DictReader(open(fn)):
        if r['kernel']!='mixgemm' or not r['us_median']: continue
        t[(r['shape'],r['type_spec'],int(r['M']))][r['schedule']]=float(r['us_median'])
    return t
def plan(fn):
    p={}
    for r in csv.reader(open(fn)):
        if len(r)<7 or r[0]=='shape' or r[0].startswith('#'): continue
        p[(r[0],r[4],int(r[5]))]=r[6]
    return p
os.chdir(sys.argv[1]); mode=sys.argv[2]
T={c:load(f'{c}-{mode}.csv') for c in cfgs}
P={c:plan(f'{c}-plan.csv') for c in cfgs}
keys=sorted(T['base'])
print('%-28s %-6s %3s'%('shape','type','M'),' '.join('%7s'%c for c in cfgs),'  (best smallm per cfg; base pick time; sm90)')
for k in keys:
    row=[]
    for c in cfgs:
        d=T[c].get(k,{})
        sm=[v for s,v in d.items() if s.startswith('smallm')]
        row.append(min(sm) if sm else float('nan'))
    pk=P['base'][k]; bt=T['base'][k].get(pk,float('nan'))
    s9=T['base'][k].get('sm90_128x64_1x1x1_coop_splitk',float('nan'))
    print('%-28s %-6s %3d'%(k[0][-26:],k[1][:4],k[2]),' '.join('%7.2f'%x for x in row),' | %7.2f %s | %7.2f'%(bt,pk[7:17],s9))
