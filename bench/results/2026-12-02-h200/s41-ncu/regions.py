#!/usr/bin/env python3
# Session 41: warp-state samples of an ncu "source --print-source cuda,sass" export (sourcecs_*.csv in
# profile_cases.tar.gz) summed per region of src/kernels/smallm/smallm_gemm.cuh at commit bf8d7cc (line ranges
# of its functions below; instructions of other files count to the region of the nearest preceding line).
#   python3 regions.py sourcecs_s2_m1_t8_w8_o1_p0.csv
import csv, sys, collections
def num(x):
    try: return int(x)
    except ValueError: return 0
path=sys.argv[1]
rows=list(csv.reader(open(path)))
cur_file=None; cur_line=None; hdr=None
# region by smallm_gemm.cuh line ranges; inlined helper lines are attributed to the last smallm_gemm.cuh line? no: by address order
# build address-ordered list of (addr, file, line, samples, reasons)
ins=[]
for r in rows:
    if not r: continue
    if r[0]=="File Path": cur_file=r[1].split('/')[-1]; continue
    if r[0]=="Line No": hdr=r; idx={h:i for i,h in enumerate(r)}; continue
    if hdr is None or len(r)<len(hdr): continue
    if r[0]!="": cur_line=int(r[0]); continue
    if not r[2].startswith("0x"): continue
    reasons={h[6:]:num(r[i]) for h,i in idx.items() if h.startswith("stall_") and "Not Issued" not in h}
    ins.append((int(r[2],16), cur_file, cur_line, num(r[idx["Warp Stall Sampling (All Samples)"]]), num(r[idx["Instructions Executed"]]), reasons, r[3]))
# The cuda,sass view lists an inlined instruction under each source line it belongs to (callee and call
# site): keep one entry per address, the smallm_gemm.cuh one with the lowest line (the innermost function:
# the file defines helpers before their callers), else the first.
best={}
for e in ins:
    a=e[0]; cur=best.get(a)
    if cur is None: best[a]=e; continue
    if e[1]=="smallm_gemm.cuh" and (cur[1]!="smallm_gemm.cuh" or e[2]<cur[2]): best[a]=e
ins=sorted(best.values())
regions=[("row helpers (load_b, load_sz, dequant, mma)",291,431),("load_stage",208,252),("convert_stage",262,290),("compute_chunk",480,560),("produce",432,480),("finish_segment",560,880),("chunk_loop",890,968),("run/prologue",1020,1125),("chunk helpers",100,140)]
def region(f,l):
    if f!="smallm_gemm.cuh": return None
    for n,a,b in regions:
        if a<=l<=b: return n
    return "other:%d"%l
# attribute helper-file instructions to the nearest preceding smallm_gemm.cuh region
last="?"
agg=collections.Counter(); rs=collections.defaultdict(collections.Counter); ex=collections.Counter()
for a,f,l,s,e,rea,t in ins:
    g=region(f,l)
    if g is None: g=last
    else: last=g
    agg[g]+=s; ex[g]+=e; rs[g].update(rea)
T=sum(agg.values())
for g,s in agg.most_common(20):
    print(f"{100*s/T:5.1f}% {s:6d} exec {ex[g]:9d} {g:20s} | "+", ".join(f"{k} {v}" for k,v in rs[g].most_common(4)))
