# Session 65: grid over kRankA16 candidates (R_AUTO=1: each tile ranked by its own split at every M), scored as the
# geomean pick / fastest schedule (pvb_var: ../../s63-allsched24-128/analysis/pick_vs_best.cpp built with
# make_rank_variant.py's sm90_h.cpp) on f16e.csv / f16g.csv (call2-f16all event / graph CSVs, gunzipped). Prints the best 15.
import subprocess, itertools, os, sys
def run(cfg, f):
    env=dict(os.environ, R_T64=str(cfg[0]), R_T128=str(cfg[1]), R_T256=str(cfg[2]), R_OVH=str(cfg[3]), R_PART=str(cfg[4]), R_TWO=str(cfg[5]))
    out=subprocess.run(['./pvb_var', f], env=env, capture_output=True, text=True).stdout
    for l in out.splitlines():
        if l.startswith('all '): x=l.split(); return float(x[2]), float(x[4])
res=[]
os.environ["R_AUTO"]="1"
T64=[247,300,350,411]; R128=[1.0,1.1,1.2,1.3,1.45]; R256=[1.5,1.66,1.8,2.0,2.3,2.68]; OVH=[2000,3000]; PART=[25,50,75]; TWO=[1.25,1.4,1.55,1.76]
for t64,r128,r256,ovh,part,two in itertools.product(T64,R128,R256,OVH,PART,TWO):
    cfg=(t64, round(t64*r128), round(t64*r256), ovh, part, two)
    e=run(cfg,'f16e.csv'); g=run(cfg,'f16g.csv')
    res.append((e[0]*g[0], cfg, e, g))
res.sort()
for r in res[:15]: print(r)
cur=(411,443,682,3000,25,1.25); print('current', run(cur,'f16e.csv'), run(cur,'f16g.csv'))
