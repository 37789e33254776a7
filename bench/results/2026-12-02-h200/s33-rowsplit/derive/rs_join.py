import csv, math, sys, collections, subprocess
D = sys.argv[1]
d = collections.defaultdict(lambda: collections.defaultdict(list))
NK = {}
for v, runs in (("0", (1, 4)), ("1", (2, 3))):
    for i in runs:
        for r in csv.DictReader(open(f"{D}/rs{v}-{i}.csv")):
            if r["kernel"] == "mixgemm" and r["us_median"]:
                k = (r["shape"], r["type_spec"].split(".")[0], int(r["M"]))
                NK[k[:2]] = (int(r["N"]), int(r["K"]))
                d[k][v].append((float(r["us_median"]), r["schedule"]))
pred = {}
groups = collections.defaultdict(list)
for k in d: groups[(k[1],) + NK[k[:2]]].append(k[2])
for (t, N, K), Ms in groups.items():
    out = subprocess.run([".s33/rs_model", t, str(N), str(K)] + [str(m) for m in sorted(set(Ms))], capture_output=True, text=True).stdout
    for line in out.split("\n"):
        if not line: continue
        f = line.split(); pred[(t, N, K, int(f[3]))] = (int(f[5]), float(f[6]), float(f[4]), float(f[7]), float(f[8]))
rows = []
for k, v in sorted(d.items()):
    t0 = sum(x[0] for x in v["0"]) / len(v["0"]); t1 = sum(x[0] for x in v["1"]) / len(v["1"])
    split = "[" in v["1"][0][1]
    p = pred[(k[1],) + NK[k[:2]] + (k[2],)]
    rows.append((k, t0, t1, split, p, v["0"][0][1], v["1"][0][1]))
import pickle; pickle.dump(rows, open("/tmp/rs_rows.pkl", "wb"))
