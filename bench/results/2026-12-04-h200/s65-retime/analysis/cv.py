# Session 65: leave-one-layer-set-out check of the grid (grid.py's): fitted on three of Llama-3-8B / Llama-2-7B /
# Llama-2-70B / seed, scored on the fourth (f16e.wo.X.csv / f16e.only.X.csv: the CSVs without / with only that set). -> cv.txt
import subprocess, itertools, os, math
os.environ["R_AUTO"]="1"
def run(cfg, f):
    env=dict(os.environ, R_T64=str(cfg[0]), R_T128=str(cfg[1]), R_T256=str(cfg[2]), R_OVH=str(cfg[3]), R_PART=str(cfg[4]), R_TWO=str(cfg[5]))
    out=subprocess.run(['./pvb_var', f], env=env, capture_output=True, text=True).stdout
    for l in out.splitlines():
        if l.startswith('all '): x=l.split(); return float(x[2]), float(x[4]), int(x[6])
T64=[247,300,350,411]; R128=[1.0,1.1,1.2,1.3,1.45]; R256=[1.5,1.66,1.8,2.0,2.3,2.68]; OVH=[2000,3000]; PART=[25,50,75]; TWO=[1.25,1.4,1.55,1.76]
G=[(t64, round(t64*r128), round(t64*r256), ovh, part, two) for t64,r128,r256,ovh,part,two in itertools.product(T64,R128,R256,OVH,PART,TWO)]
cur=(411,443,682,3000,25,1.25); chosen=(247,321,568,3000,50,1.76)
for s in ['llama3-8b','llama2-7b','llama2-70b','seed']:
    best=min(G, key=lambda c: run(c,f'f16e.wo.{s}.csv')[0]*run(c,f'f16g.wo.{s}.csv')[0])
    out=[]
    for c in (best, chosen, cur):
        out.append('%s e %.4f g %.4f' % (c, run(c,f'f16e.only.{s}.csv')[0], run(c,f'f16g.only.{s}.csv')[0]))
    print(s, '| fitted on rest:', out[0], '| chosen:', out[1], '| current consts:', out[2], flush=True)
