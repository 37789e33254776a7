# Call 4's held-out A/B: the heuristic's pick and its time with the new geometry (new1/new2, new) against the old one
# (MIXGEMM_X_NOALIGN=1: old1/old2, old), CUDA graphs (mean of the two runs per side) and event-timed.
#   usage: python3 held_out.py CALL4_DIR
import csv, collections, gzip, math, os, sys
D = sys.argv[1]
def opn(f): return gzip.open(f + '.gz', 'rt') if os.path.exists(f + '.gz') else open(f)
def load(fn):
    t = {}
    for r in csv.DictReader(opn(f'{D}/{fn}')):
        if r['kernel'] != 'mixgemm' or not r['us_median']: continue
        t[(r['shape'], r['type_spec'], int(r['M']))] = (r['schedule'], float(r['us_median']))
    return t
for mode, news, olds in (('graph', ['new1', 'new2'], ['old1', 'old2']), ('event', ['new'], ['old'])):
    N = [load(f'held-{x}-{mode}.csv') for x in news]; O = [load(f'held-{x}-{mode}.csv') for x in olds]
    print('==', mode, '(* = the pick moved)')
    g = collections.defaultdict(list); allr = []
    for k in sorted(N[0]):
        tn = sum(n[k][1] for n in N) / len(N); to = sum(o[k][1] for o in O) / len(O)
        r = tn / to; changed = N[0][k][0] != O[0][k][0]
        g[(k[1].split('.')[0], 'moved' if changed else 'same pick')].append(r); allr.append(r)
        print('%-18s %-5s %2d old %-30s %7.2f new %-30s %7.2f %.3f%s' % (k[0][-16:], k[1][:4], k[2], O[0][k][0][:30], to,
              N[0][k][0][:30], tn, r, ' *' if changed else ''))
    for kk in sorted(g):
        v = g[kk]; print(kk, len(v), 'geomean %.3f min %.3f max %.3f' % (math.exp(sum(map(math.log, v)) / len(v)), min(v), max(v)))
    print('all geomean %.3f' % math.exp(sum(map(math.log, allr)) / len(allr)))
