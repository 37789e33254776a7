# Best smallm over best sm90 per narrow layer, type and M (graph / event), on call 3's table (c3-*.csv: s67-aligned/
# call3-ab/new-*.csv.gz gunzipped) and call 1(b) (b/*.csv). Output: family-ratio.txt.
import csv, math, collections
def load(ev, gr):
    E={}; G={}
    for f,d in [(ev,E),(gr,G)]:
        for r in csv.DictReader(open(f)):
            if r['kernel']!='mixgemm' or r['status']!='ok': continue
            d[(r['shape'],int(r['N']),int(r['K']),r['type_spec'].split('.')[0],int(r['M']),r['schedule'])]=float(r['us_median'])
    return E,G
for tag,ev,gr in [('c3','c3-event.csv','c3-graph.csv'),('held','b/event.csv','b/graph.csv')]:
    E,G=load(ev,gr)
    pts=collections.defaultdict(dict)
    for k in E:
        if k in G: pts[k[:5]][k[5]]=(E[k],G[k])
    rows=[]
    for k,d in sorted(pts.items()):
        sh,N,K,ty,M=k
        if M<24 or 'llama3' in sh: continue
        sm=min((v for s,v in d.items() if s.startswith('sm90')), key=lambda v: v[1])
        bs=min((v for s,v in d.items() if s.startswith('smallm')), key=lambda v: v[1])
        rows.append((N,K,ty,M,bs[1]/sm[1],bs[0]/sm[0]))
    for ty in ['f16','s8','e4m3']:
        print(f'== {tag} {ty}: best smallm / best sm90 (graph, event) by layer; M = 24 32 48 64')
        for (N,K) in sorted({(r[0],r[1]) for r in rows}):
            cells=[f'{r[4]:.2f}/{r[5]:.2f}' for r in rows if r[:3]==(N,K,ty)]
            print(f'  {N:5d}x{K:<5d} stripes8w={-(-N//256):3d} KBn={K//64:3d} MB={N*K/2e6:5.2f}  '+'  '.join(cells))
