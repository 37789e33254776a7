# Call 5: the heuristic's picks with the lone-4-warp row (new1/new2, newe) against abd8c0a's (old1/old2, olde), one
# build and run; CUDA graphs (mean of two runs per side) and event-timed; by type and whether the pick moved.
#   usage: python3 lone_ab.py CALL5_DIR
import csv, collections, gzip, math, os, sys
D = sys.argv[1]
def opn(f): return gzip.open(f + '.gz', 'rt') if os.path.exists(f + '.gz') else open(f)
def load(fn):
    t = {}
    for r in csv.DictReader(opn(f'{D}/{fn}.csv')):
        if r['kernel'] != 'mixgemm' or not r['us_median']: continue
        t[(r['shape'], r['type_spec'], int(r['M']))] = (r['schedule'], float(r['us_median']))
    return t
for mode, news, olds in (('graph', ['new1', 'new2'], ['old1', 'old2']), ('event', ['newe'], ['olde'])):
    N = [load(x) for x in news]; O = [load(x) for x in olds]
    g = collections.defaultdict(list)
    print('==', mode, '(* = the pick moved)')
    for k in sorted(N[0]):
        tn = sum(n[k][1] for n in N) / len(N); to = sum(o[k][1] for o in O) / len(O); r = tn / to
        ch = N[0][k][0] != O[0][k][0]
        g[(k[1].split('.')[0], 'moved' if ch else 'same pick')].append(r)
        print('%-18s %-5s %2d old %-30s %7.2f new %-30s %7.2f %.3f%s' % (k[0][-16:], k[1][:4], k[2], O[0][k][0][:30], to,
              N[0][k][0][:30], tn, r, ' *' if ch else ''))
    for kk in sorted(g):
        v = g[kk]; print(kk, len(v), 'geomean %.3f min %.3f max %.3f' % (math.exp(sum(map(math.log, v)) / len(v)), min(v), max(v)))
