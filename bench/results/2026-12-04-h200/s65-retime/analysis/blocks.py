# Session 65: per-tile 64-k block time where a tile runs whole tiles without a split (as kModelS8's were measured):
# (time - 2 us launch - waves x U) / (waves x K / 64), median per tile and padded / not. Input: pick_vs_best ALLDETAIL=1
# output and the CSV (for N, K); python3 blocks.py DETAIL CSV [U_ns] [-v]
import re, math, collections, csv, sys, statistics
NK={}
for r in csv.DictReader(open(sys.argv[2])): NK[r['shape']]=(int(r['N']),int(r['K']))
U=float(sys.argv[3]) if len(sys.argv)>3 else 2000
res=collections.defaultdict(list)
for l in open(sys.argv[1]):
    f=l.split()
    if len(f)<12 or 'model' not in l: continue
    k=f[0]; tile=f[1]; meas=float(f[-1]); whole=int(f[6]); s=int(f[8]); stream=int(f[10])
    shape,typ,M=k.split('|'); M=int(M)
    tn,tt=map(int,re.match(r'sm90_(\d+)x(\d+)',tile).groups())
    N,K=NK[shape]
    tiles=math.ceil(N/tn)*math.ceil(M/tt)
    if s!=1 or stream!=0 or whole!=tiles: continue
    waves=math.ceil(tiles/132)
    b=(meas*1000-2000-waves*U)/(waves*K/64)
    pad = M % tt != 0
    res[(tile,pad)].append((b,shape,M,waves,tiles))
for k in sorted(res):
    v=[x[0] for x in res[k]]
    print(k, len(v), 'median %.0f' % statistics.median(v), 'min %.0f max %.0f' % (min(v), max(v)))
    if '-v' in sys.argv: print('   ', ' '.join(f'{x[1]}:{x[2]}:{x[0]:.0f}' for x in sorted(res[k], key=lambda x:(x[1],x[2]))))
