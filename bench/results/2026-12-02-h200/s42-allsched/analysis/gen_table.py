# Session 42: kH200Graph of tests/cpu/test_smallm_heuristic.cpp from this call's all-schedules table
# (part A first: its f16 / s8 rows at M = 1 / 8 are the table's; part B adds e4m3 and M = 16).
# usage: python3 gen_table.py ../allsched-a.csv.gz ../allsched-b.csv.gz
import csv, collections, gzip, sys
NK = {"llama3-8b/qkv":(6144,4096),"llama3-8b/o":(4096,4096),"llama3-8b/gate_up":(28672,4096),"llama3-8b/down":(4096,14336),
 "llama2-7b/qkv":(12288,4096),"llama2-7b/o":(4096,4096),"llama2-7b/gate_up":(22016,4096),"llama2-7b/down":(4096,11008),
 "llama2-70b/qkv":(10240,8192),"llama2-70b/o":(8192,8192),"llama2-70b/gate_up":(57344,8192),"llama2-70b/down":(8192,28672),"seed":(8192,21760)}
cols = ["t8_w8_o1","t8_w4_o2","t8_w8_o2","t8_w4_o4","t16_w8_o1","t16_w4_o2","t16_w8_o2"]
meas = collections.defaultdict(dict)
for f in sys.argv[1:]:
    for r in csv.DictReader(gzip.open(f, "rt")):
        if r["kernel"] != "mixgemm" or not r["us_median"]: continue
        meas[(r["type_spec"].split(".")[0], r["shape"], int(r["M"]))].setdefault(
            r["schedule"].replace("smallm_", "").replace("_p0", ""), float(r["us_median"]))
AT = {"f16": "kF16", "s8": "kS8", "e4m3": "kE4M3"}
for t in ["f16", "s8", "e4m3"]:
    print(f"    // {t}")
    for s in NK:
        for M in (1, 8, 16):
            k = (t, s, M)
            if k not in meas: continue
            d = meas[k]; N, K = NK[s]
            print("    {AType::%s, %d, %d, %d, {%s}},  // %s" % (AT[t], N, K, M, ", ".join("%.2f" % d.get(c, 0) for c in cols), s))
