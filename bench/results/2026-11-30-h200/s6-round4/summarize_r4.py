import csv, gzip, os, re, sys, collections, statistics as st
R = sys.argv[1]
for t in ("trace", "tail"):
    p = os.path.join(R, f"trace-{t}.txt.gz")
    if not os.path.exists(p): continue
    d = collections.defaultdict(list)
    for l in gzip.open(p, "rt"):
        f = l.split(); d[f[0]].append([int(x) for x in f[2:]])
    print(f"[{t}] tag ctas | rowstart zero A B (prologue parts) | first-stage | compute | reducers: to-reduce reduce | others: end | span (us)")
    for tag, rows in d.items():
        med = lambda i, j, rs=rows: st.median([(r[j] - r[i]) / 1e3 for r in rs if r[i] and r[j]] or [0])
        red = [r for r in rows if r[6]]; oth = [r for r in rows if not r[6]]
        t0 = min(r[0] for r in rows); end = max(r[7] for r in rows)
        print(f"{tag} {len(rows)} | {med(0,8):.2f} {med(8,9):.2f} {med(9,10):.2f} {med(10,11):.2f} | {med(1,2):.2f} | {med(2,4):.2f} | "
              f"{len(red)}: {med(4,6,red):.2f} {med(6,7,red):.2f} | {med(4,7,oth):.2f} | {(end-t0)/1e3:.2f}")
runs = {}
for s in ("main", "tail", "main2", "tail2"):
    p = os.path.join(R, s + ".csv")
    runs[s] = {(r["shape"], r["M"]): float(r["us_median"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"} if os.path.exists(p) else {}
print("shape M " + " ".join(runs) + "  tail/main")
import math
lr = []
for k in sorted(runs["main"]):
    m = (runs["main"][k] + runs["main2"].get(k, runs["main"][k])) / 2
    tt = (runs["tail"].get(k, float("nan")) + runs["tail2"].get(k, float("nan"))) / 2
    lr.append(math.log(tt / m))
    print(f"{k[0]:20s} {k[1]:>2s} " + " ".join(f"{runs[s].get(k, float('nan')):8.2f}" for s in runs) + f"  {tt/m:.3f}")
print("geomean tail/main", round(math.exp(sum(lr) / len(lr)), 4))
for t in ("trace", "tail"):
    p = os.path.join(R, f"timing-{t}.log")
    if os.path.exists(p):
        for l in open(p):
            m = re.search(r"N=(\d+) K=(\d+) g=\d+ M=(\d+) cfg=(\S+) median_us=([\d.]+)", l)
            if m: print(t, *m.groups())
