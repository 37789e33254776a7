# Session 84: grid over kModelE4M3's constants (pvb_var: scripts/pick_vs_best.cpp built with sm90_h.cpp, a copy of
# main's sm90_heuristic.cpp whose kModelE4M3 reads E_T64 / E_T128 / E_T256 / E_OVH / E_PART / E_TWO from the
# environment), scored as the geomean pick / fastest schedule on the event-timed (e.csv) and graph (g.csv) tables of
# e4m3all; prints the best 15 by the product of the two geomeans, and main's constants.
import subprocess, itertools, os
def run(cfg, f):
    env=dict(os.environ, E_T64=str(cfg[0]), E_T128=str(cfg[1]), E_T256=str(cfg[2]), E_OVH=str(cfg[3]), E_PART=str(cfg[4]), E_TWO=str(cfg[5]))
    out=subprocess.run(['./pvb_var', f], env=env, capture_output=True, text=True).stdout
    for l in out.splitlines():
        if l.startswith('all '): x=l.split(); return float(x[2]), float(x[4])
res=[]
T64=[240,253,273]; T128=[290,305,320,340]; T256=[360,378,392,420]; OVH=[2000,3000]; PART=[50,75,100]; TWO=[1.56,1.65,1.72,1.8,1.85]
for cfg in itertools.product(T64,T128,T256,OVH,PART,TWO):
    e=run(cfg,'e.csv'); g=run(cfg,'g.csv')
    res.append((round(e[0]*g[0],5), cfg, e, g))
res.sort()
for r in res[:15]: print(r)
cur=(273,308,378,2000,75,1.56); print('main', run(cur,'e.csv'), run(cur,'g.csv'))
