import csv, sys, math, collections, gzip
# Session 42: session 39's cmp.py with arguments: python3 cmp.py PLAN.csv ALLSCHED.csv...
plan = {(r["shape"], r["type"], r["M"]): r["schedule"] for r in csv.DictReader(open(sys.argv[1]))}
t = collections.defaultdict(dict)
for f in sys.argv[2:]:
    for r in csv.DictReader(gzip.open(f, "rt") if f.endswith(".gz") else open(f)):
        if r["kernel"] != "mixgemm" or not r["us_median"]: continue
        k = (r["shape"], r["type_spec"], r["M"])
        s = r["schedule"]; v = float(r["us_median"])
        t[k][s] = min(v, t[k].get(s, 1e9))
tot = collections.defaultdict(list)
for k in sorted(t):
    p = plan.get(k); d = t[k]
    if p not in d: print("no pick row", k, p); continue
    b = min(d, key=d.get)
    r = d[p] / d[b]
    tot[(k[1].split('.')[0], k[2])].append(r)
    flag = " <==" if r > 1.02 else ""
    print(f"{k[0]:18s} {k[1]:16s} M={k[2]:>2s} pick {p:22s} {d[p]:8.3f} best {b:22s} {d[b]:8.3f} {r:6.3f}{flag}")
for k, v in sorted(tot.items()):
    print(k, "geomean pick/best %.4f" % math.exp(sum(map(math.log, v)) / len(v)), "max %.3f" % max(v), len(v))
