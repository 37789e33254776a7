# Session 84: leave-one-layer-set-out check of grid_e4m3.py's choice: for each of the four layer sets, the grid's best
# constants on the other three sets, and their score (event, graph geomean pick / fastest) on the set left out,
# beside main's constants and the two candidates (TWO 1.8; TWO 1.8 with PART 50) on that set.
import subprocess, itertools, os
sets=['llama3-8b','llama2-7b','llama2-70b','seed']
def split(src):
    lines=open(src).read().splitlines(); h=lines[0]
    for s in sets:
        inn=[l for l in lines[1:] if l.split(',')[1].split('/')[0]==s]
        out=[l for l in lines[1:] if l.split(',')[1].split('/')[0]!=s]
        open(f'cv_{src[0]}_in_{s}.csv','w').write('\n'.join([h]+inn)+'\n')
        open(f'cv_{src[0]}_out_{s}.csv','w').write('\n'.join([h]+out)+'\n')
split('e.csv'); split('g.csv')
def run(cfg, f):
    env=dict(os.environ, E_T64=str(cfg[0]), E_T128=str(cfg[1]), E_T256=str(cfg[2]), E_OVH=str(cfg[3]), E_PART=str(cfg[4]), E_TWO=str(cfg[5]))
    out=subprocess.run(['./pvb_var', f], env=env, capture_output=True, text=True).stdout
    for l in out.splitlines():
        if l.startswith('all '): x=l.split(); return float(x[2])
    return float('nan')
T64=[240,253,273]; T128=[290,305,320,340]; T256=[360,378,392,420]; OVH=[2000,3000]; PART=[50,75,100]; TWO=[1.56,1.65,1.72,1.8,1.85]
main=(273,308,378,2000,75,1.56); A=(273,308,378,2000,75,1.8); B=(273,308,378,2000,50,1.8)
for s in sets:
    best=min(itertools.product(T64,T128,T256,OVH,PART,TWO), key=lambda c:(run(c,f'cv_e_out_{s}.csv')*run(c,f'cv_g_out_{s}.csv'), c!=B))
    sc=lambda c:(run(c,f'cv_e_in_{s}.csv'), run(c,f'cv_g_in_{s}.csv'))
    print(f'{s:11s} fit {best}: held-out {sc(best)} | main {sc(main)} | A {sc(A)} | B {sc(B)}')
