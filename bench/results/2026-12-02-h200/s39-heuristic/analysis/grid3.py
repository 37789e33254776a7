exec(open("grid.py").read().split("# check against")[0])
import collections, math
for typ in ["s8", "f16"]:
  for ac in [1, 1.5, 2, 2.25, 3, 4]:
    rs = []; misses = []
    for k, d in meas.items():
        if k[1] != typ or k[2] != 16: continue
        one = [s for s in d if s.startswith("smallm_t16_")]
        p = min(one, key=lambda s: model(k, s, 1.0, ac))
        r = d[p] / min(d[s] for s in one); rs.append(r)
        if r > 1.02: misses.append("%s %s %.3f" % (k[0], p.replace("smallm_", ""), r))
    print(typ, ac, "%.4f %.3f" % (math.exp(sum(map(math.log, rs)) / len(rs)), max(rs)), "; ".join(misses))
