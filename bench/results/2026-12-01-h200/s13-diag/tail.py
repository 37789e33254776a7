import gzip,collections,statistics,sys
# slots: 0 entry 1 loop 2 first 3 fenced 4 final 5 released 6 reduce 7 exit 12 ticket 13 loaded 14 summed 15 stored
for f in sys.argv[1:]:
    by=collections.defaultdict(list)
    for l in gzip.open(f,'rt'):
        p=l.split(); by[p[0]].append([int(x) for x in p[2:18]])
    print(f)
    print("tag | n | final>fenced fenced>ticket ticket>released released>reduce reduce>loaded loaded>summed summed>stored stored>exit | nonred final>fenced fenced>ticket ticket>exit | span exit-p90")
    for tag,rows in by.items():
        red=[r for r in rows if r[6] and r[13]]
        oth=[r for r in rows if not r[6] and r[3]]
        def m(rs,i,j):
            v=[(r[j]-r[i])/1e3 for r in rs if r[i] and r[j]]
            return "%.2f"%statistics.median(v) if v else "nan"
        t0=min(r[0] for r in rows); ex=sorted((r[7]-t0)/1e3 for r in rows)
        print(tag,"|",len(red),"|",m(red,4,3),m(red,3,12),m(red,12,5),m(red,5,6),m(red,6,13),m(red,13,14),m(red,14,15),m(red,15,7),"|",
              m(oth,4,3),m(oth,3,12),m(oth,12,7),"| %.2f %.2f"%(ex[-1],ex[int(len(ex)*.9)]))
