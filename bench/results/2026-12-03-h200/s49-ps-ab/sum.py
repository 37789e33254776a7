# per (shape, M, type): mean over runs of us_median for gemm and gemm_partial_sums, and the pure read
import csv, sys, statistics as st
rows, read = {}, {}
for path in sys.argv[1:]:
    tag = "ps" if "-ps-" in path else "gemm"
    for r in csv.DictReader(open(path)):
        try:
            us = float(r["us_median"])
        except ValueError:
            continue
        if r["kernel"] == "stream_read_graph":
            read[(r["shape"], r["M"])] = us
        elif r["kernel"] == "mixgemm" and r["status"] != "not_supported":
            d = rows.setdefault((r["shape"], r["M"], r["type_spec"]), {})
            d.setdefault(tag, []).append(us)
            d["sched_" + tag] = r["schedule"]
print(f"{'shape':20s} {'M':>2s} {'type':14s} {'read':>6s} {'gemm':>7s} {'ps':>7s} {'ps/gemm':>7s}  schedules")
for key in sorted(rows):
    d = rows[key]
    g = st.mean(d["gemm"]) if "gemm" in d else float("nan")
    p = st.mean(d["ps"]) if "ps" in d else float("nan")
    rd = read.get(key[:2], float("nan"))
    print(f"{key[0]:20s} {key[1]:>2s} {key[2]:14s} {rd:6.2f} {g:7.2f} {p:7.2f} {p / g:7.3f}  {d.get('sched_gemm','')} {d.get('sched_ps','')}")
