"""The row-split rule (core::choose_row_split_among) against every A/B of s33-rowsplit/: for each measured point the
rule splits, the time with the split over the one launch's. Usage, from the repository root, on a build tree configured
with -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 (for its generated sm90_registry.cpp), no GPU:
  g++ -O1 -std=c++20 -Isrc -Iinclude -IBUILD/generated -IBUILD derive/rs_check.cpp src/core/dispatch.cpp \
      src/core/problem.cpp src/core/scalar_type.cpp src/kernels/sm90/sm90_heuristic.cpp BUILD/generated/sm90_registry.cpp \
      -o rs_check -no-pie -Wl,--unresolved-symbols=ignore-all
  python3 bench/results/2026-12-02-h200/s33-rowsplit/eval_rule.py ./rs_check
"unmeasured" counts points the rule splits where the measured run did not (none at this commit)."""
import csv, gzip, math, collections, subprocess, sys
B = sys.argv[2] if len(sys.argv) > 2 else "bench/results/2026-12-02-h200/s33-rowsplit"
sets = {"derive": (f"{B}/derive/rs{{v}}-{{i}}.csv.gz", True), "final-train": (f"{B}/final/train-rs{{v}}-{{i}}.csv.gz", True),
        "final-heldout": (f"{B}/final/heldout-rs{{v}}-{{i}}.csv.gz", True), "m-train": (f"{B}/mcheck/train-rs{{v}}-{{i}}.csv.gz", True), "m-heldout": (f"{B}/mcheck/heldout-rs{{v}}-{{i}}.csv.gz", True),
        "fresh": (f"{B}/fresh/fresh-rs{{v}}-{{i}}.csv.gz", True)}
data = {}; allpts = set()
for name, (pat, gz) in sets.items():
    d = collections.defaultdict(lambda: collections.defaultdict(list))
    for v, runs in (("0", (1, 4)), ("1", (2, 3))):
        for i in runs:
            fn = pat.format(v=v, i=i)
            for r in csv.DictReader(gzip.open(fn, "rt") if gz else open(fn)):
                if r["kernel"] == "mixgemm" and r["us_median"]:
                    k = (r["type_spec"].split(".")[0], r["N"], r["K"], int(r["M"]))
                    d[(r["shape"],) + k][v].append((float(r["us_median"]), r["schedule"])); allpts.add(k)
    data[name] = {k: (sum(x[0] for x in v["0"]) / len(v["0"]), sum(x[0] for x in v["1"]) / len(v["1"]), v["1"][0][1]) for k, v in d.items()}
inp = "\n".join(" ".join(map(str, k)) for k in sorted(allpts)) + "\n"
out = subprocess.run([sys.argv[1]], input=inp, capture_output=True, text=True).stdout.split("\n")
head = {}
for l in out:
    if l: f = l.split(); head[(f[0], f[1], f[2], int(f[3]))] = int(f[4])
for name, pts in data.items():
    L = []; slow = []; unmeasured = 0; n = 0
    for k, (t0, t1, sched) in pts.items():
        h = head[k[1:]]
        if h == 0: continue
        if "[%d]" % h not in sched: unmeasured += 1; continue
        L.append(math.log(t1 / t0))
        if t1 / t0 > 1.0: slow.append(f"{k[0]}/{k[1]}/{k[4]}:{t1/t0:.3f}")
    per = collections.defaultdict(list)
    for k, (t0, t1, sched) in pts.items():
        h = head[k[1:]]
        if h and "[%d]" % h in sched: per[k[1]].append(math.log(t1 / t0))
    per_txt = ", ".join(f"{t} {math.exp(sum(x)/len(x)):.3f} ({len(x)})" for t, x in sorted(per.items()))
    print(f"{name}: {per_txt}")
    print(f"{name}: {len(L)} splits geo {math.exp(sum(L)/max(len(L),1)):.3f} unmeasured {unmeasured} slow {slow}")
