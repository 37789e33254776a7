# An A/B of scripts/device_sm90_multi.sh (FOLDER/base-1.csv, base-2.csv, VARIANT-1.csv, VARIANT-2.csv), compared by
# plan: per point (shape, type spec, M) the mean of the two runs of each side; the geomean variant / base at the points
# with the same plan (the control) and at those whose plan changed, per type spec; every changed point listed.
#   python3 scripts/ab_plan_diff.py FOLDER VARIANT
# (Session 65 wrote it keyed by the activation type only, bench/results/2026-12-04-h200/s65-retime/analysis/ab_diff.py;
# session 66 keyed it by the whole type spec, so f16.u4 and f16.u8b128 stay apart, and moved it here.)
import csv, math, sys, collections
D=sys.argv[1]
def load(n):
    r={}
    for f in (1,2):
        for x in csv.DictReader(open(f'{D}/{n}-{f}.csv')):
            if x['kernel']!='mixgemm' or x['status']!='ok': continue
            k=(x['shape'],x['type_spec'],int(x['M']))
            r.setdefault(k,[x['schedule'],[]])[1].append(float(x['us_median']))
    return r
b=load('base'); v=load(sys.argv[2])
g=lambda a: math.exp(sum(map(math.log,a))/len(a)) if a else float('nan')
same=collections.defaultdict(list); diff=collections.defaultdict(list); rows=[]
for k in b:
    if k not in v: continue
    rb=sum(b[k][1])/len(b[k][1]); rv=sum(v[k][1])/len(v[k][1]); r=rv/rb
    (same if b[k][0]==v[k][0] else diff)[k[1]].append(r)
    if b[k][0]!=v[k][0]: rows.append((r,k,b[k][0],v[k][0]))
for t in sorted(set(same) | set(diff)): print(f'{t}: same plan {len(same[t])} pts {g(same[t]):.4f} | changed {len(diff[t])} pts {g(diff[t]):.4f} | all {g(same[t]+diff[t]):.4f}')
A=[r for t in same for r in same[t]]; B=[r for t in diff for r in diff[t]]
rng = f' (min {min(B):.3f} max {max(B):.3f})' if B else ''
print(f'all: same {len(A)} {g(A):.4f}, changed {len(B)} {g(B):.4f}{rng}, all {g(A+B):.4f}')
for r,k,pb,pv in sorted(rows): print(f'  {r:.3f} {k[1]:16s} {k[0]:22s} M={k[2]:5d} {pb} -> {pv}')
