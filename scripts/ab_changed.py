# The points of a scripts/device_sm90_multi.sh A/B whose plan changed (base against VARIANT, the `schedule` column of
# each run's CSV), with the variant's time over the base's (the mean of each side's two runs' medians), and the geomean
# per type and M range (M <= 32, 33..64, > 64); then the same for the points whose plan did not change (the run's noise).
# scripts/ab_multi_summary.py gives the geomeans per schedule; this gives the moved points alone.
#   python3 scripts/ab_changed.py DIR VARIANT    (DIR: multi.tar.gz, or a pass's tarball, unpacked: base-1.csv,
#   base-2.csv, VARIANT-1.csv, VARIANT-2.csv)
# (Session 84 wrote it as s84-ab/changed.py; session 85 made the variant an argument and moved it here: s84-ab/,
# s85-ab-swapped/ and s85-ab-s8m16/ under bench/results/ use it.)
import csv, sys, math, collections
d = sys.argv[1]
def load(name):
    t = {}
    for i in (1, 2):
        for r in csv.DictReader(open(f'{d}/{name}-{i}.csv')):
            if r['kernel'] != 'mixgemm' or not r['us_median']: continue
            k = (r['shape'], r['type_spec'], int(r['M']))
            s, v = t.get(k, (r['schedule'], []))
            t[k] = (r['schedule'], v + [float(r['us_median'])])
    return {k: (s, sum(v) / len(v)) for k, (s, v) in t.items()}
b, v = load('base'), load(sys.argv[2])
groups = collections.defaultdict(list)
for k in sorted(b):
    if k not in v: continue
    r = v[k][1] / b[k][1]
    moved = b[k][0] != v[k][0]
    rng = 'M<=32' if k[2] <= 32 else 'M=33..64' if k[2] <= 64 else 'M>64'
    groups[(moved, k[1], rng)].append(r)
    if moved:
        print(f'{k[0]:22s} {k[1]:16s} {k[2]:5d} {b[k][0].replace("_1x1x1_coop_splitk",""):38s} -> '
              f'{v[k][0].replace("_1x1x1_coop_splitk",""):38s} {r:.3f}')
for g in sorted(groups):
    x = groups[g]
    print(('moved   ' if g[0] else 'same    ') + f'{g[1]:16s} {g[2]:9s} n {len(x):3d} geomean {math.exp(sum(map(math.log, x)) / len(x)):.4f} '
          f'min {min(x):.3f} max {max(x):.3f}')
