# Session 68 call 1(a): the TM 32 / 64 schedules with KBn x 1.5 / 2 / 3 under the stripe cut's square root against
# scale 1 (rscale.patch). Run in a folder holding call 1's a/ (gunzipped). Output: rscale.txt.
import csv, glob, collections, math, sys
def load(f):
    return {(r['shape'], r['type_spec'], int(r['M']), r['schedule']): float(r['us_median']) for r in csv.DictReader(open(f)) if r['status']=='ok'}
for mode in ['event','graph']:
    base = load(f'a/s1-{mode}.csv')
    print(f'== {mode}: time at scale / time at scale 1, geomean by schedule and type (n, min, max)')
    for sc in ['1.5','2','3']:
        sc_t = {}
        for f in glob.glob(f'a/s{sc}-{mode}-*.csv'): sc_t.update(load(f))
        g = collections.defaultdict(list)
        for k,v in sc_t.items():
            if k in base: g[(k[3], k[1].split('.')[0])].append(v/base[k])
        for key in sorted(g):
            r = g[key]; gm = math.exp(sum(map(math.log,r))/len(r))
            print(f'  scale {sc:>3} {key[0]:22s} {key[1]:5s} n={len(r):3d} gm={gm:.3f} min={min(r):.3f} max={max(r):.3f}')
    # best TM>=32 per point across scales vs the best smallm/sm90 at scale 1
    print(f'== {mode}: the pick-relevant question: fastest of all schedules at scale 1 vs with TM>=32 at the best single scale')
    allsc = {'1': base}
    for sc in ['1.5','2','3']:
        d={}
        for f in glob.glob(f'a/s{sc}-{mode}-*.csv'): d.update(load(f))
        allsc[sc]=d
    pts = sorted({k[:3] for k in base})
    for sc in ['1.5','2','3']:
        rat=[]
        for p in pts:
            b1 = min(v for k,v in base.items() if k[:3]==p)
            alt = min([v for k,v in base.items() if k[:3]==p and not (k[3].startswith('smallm_t32') or k[3].startswith('smallm_t64'))] +
                      [v for k,v in allsc[sc].items() if k[:3]==p])
            rat.append(alt/b1)
        gm = math.exp(sum(map(math.log,rat))/len(rat))
        print(f'  scale {sc}: fastest-of-all with TM>=32 at this scale / at scale 1: gm {gm:.4f} min {min(rat):.3f} max {max(rat):.3f} (n={len(rat)})')
