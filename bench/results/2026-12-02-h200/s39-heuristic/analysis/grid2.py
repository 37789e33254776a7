exec(open("grid.py").read().split("# check against")[0])
import collections, math
def gm(v): return math.exp(sum(map(math.log, v)) / len(v))
for typ in ["s8", "f16", "e4m3"]:
  for ac in [4, 5, 6, 7, 8]:
    out = collections.defaultdict(list); misses = []
    for k, d in meas.items():
        if k[1] != typ or k[2] > 8: continue
        one = [s for s in d if s.startswith("smallm_t8_")]
        p = min(one, key=lambda s: model(k, s, 1.0, ac))
        r = d[p] / min(d.values()); out[k[2]].append(r)
        if r > 1.03: misses.append("%s M%d %s %.3f" % (k[0], k[2], p.replace("smallm_", ""), r))
    print(typ, "ac", ac, " ".join("M%d %.4f/%.3f" % (m, gm(v), max(v)) for m, v in sorted(out.items())), "|", "; ".join(misses))
